// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// A management API command opcode (BlueZ doc/mgmt-api.txt "Command Code").
public struct MgmtOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// `0x003E`.
    public var description: String { "0x" + String(rawValue, radix: 16, uppercase: true).leftPadded(to: 4) }
}

/// One management API command: its opcode, parameters in document order (little-endian through
/// `HCIWriter`/`HCIReader`, the same byte-order rules as HCI), and the return parameters its
/// Command Complete event carries after the status.
///
/// Like HCI's `HCICommand`, every command encodes and decodes, so tests can check both directions
/// against byte vectors taken from the documentation.
public protocol MgmtCommand: Sendable, Hashable, CustomStringConvertible {
    /// What the command's Command Complete event carries back.
    associatedtype ReturnParameters: MgmtReturnParameters
    static var opcode: MgmtOpcode { get }
    /// The name in doc/mgmt-api.txt, e.g. `Add Advertising`.
    static var name: String { get }
    func encodeParameters(into writer: inout HCIWriter)
    init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError)
    /// Checks the documented ranges before anything is sent. The default accepts everything.
    func validate() throws(HCIValidationError)
}

/// What Command Complete returns after the status octet.
public protocol MgmtReturnParameters: Sendable, Hashable {
    init(decoding reader: inout HCIReader) throws(HCIDecodingError)
    func encode(into writer: inout HCIWriter)
}

extension MgmtCommand {
    public func validate() throws(HCIValidationError) {}

    /// `Add Advertising (0x003E)`.
    public var description: String { "\(Self.name) (\(Self.opcode))" }

    /// The parameters alone.
    public var parameterBytes: [UInt8] {
        var writer = HCIWriter()
        encodeParameters(into: &writer)
        return writer.bytes
    }

    /// The whole packet for adapter `index` (header and parameters).
    public func packet(index: UInt16) -> MgmtPacket {
        MgmtPacket(code: Self.opcode.rawValue, index: index, parameters: parameterBytes)
    }

    /// Decodes parameters that must all be used.
    public init(parameters: [UInt8]) throws(HCIDecodingError) {
        var reader = HCIReader(parameters)
        try self.init(decodingParameters: &reader)
        try reader.expectEnd(of: "management command parameters")
    }
}

/// The instance number every advertising command carries: "The valid range for Instance
/// identifiers is 1-254. The value 0 is reserved for internal use and the value 255 is reserved
/// for future extensions" (Read Advertising Features).
public enum MgmtInstance {
    public static let range: ClosedRange<UInt8> = 1...254

    static func check(_ instance: UInt8) throws(HCIValidationError) {
        guard range.contains(instance) else {
            throw .valueOutOfRange(field: "Instance", value: UInt64(instance), allowed: "1…254 (0 is the kernel's own, 255 reserved)")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
