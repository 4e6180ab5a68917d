// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// The status of a management Command Complete or Command Status event — BlueZ
/// doc/mgmt-api.txt "Error Codes" (0x00 Success … 0x14 Permission Denied). A struct, like
/// `HCIStatus`, so a code newer than this table still round-trips.
public struct MgmtStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public var isSuccess: Bool { rawValue == 0 }

    public static let success = Self(rawValue: 0x00)
    public static let unknownCommand = Self(rawValue: 0x01)
    public static let failed = Self(rawValue: 0x03)
    public static let noResources = Self(rawValue: 0x07)
    public static let busy = Self(rawValue: 0x0A)
    public static let rejected = Self(rawValue: 0x0B)
    public static let notSupported = Self(rawValue: 0x0C)
    public static let invalidParameters = Self(rawValue: 0x0D)
    public static let notPowered = Self(rawValue: 0x0F)
    public static let invalidIndex = Self(rawValue: 0x11)
    public static let rfKilled = Self(rawValue: 0x12)
    public static let permissionDenied = Self(rawValue: 0x14)

    /// The document's name, or `nil` for a code it does not define.
    public var name: String? { entry?.name }
    /// What it means for someone running `beacon` and what to do; `nil` for an unknown code. The
    /// actions it advises are `FrontEndTerm`s, named by the front end that presents it.
    public var explanation: TermedText? { entry?.explanation }

    /// `Invalid Parameters (0x0D)`.
    public var description: String {
        let code = "0x" + Hex.string([rawValue])
        return name.map { "\($0) (\(code))" } ?? "Unknown management status (\(code))"
    }

    /// `Busy (0x0A): …`: a message a user can act on.
    public var userMessage: TermedText {
        guard let explanation else { return "\(description): the kernel returned a status this version of beacon does not know" }
        return "\(description): \(explanation)"
    }
}
