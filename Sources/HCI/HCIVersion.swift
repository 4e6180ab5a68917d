// SPDX-License-Identifier: GPL-2.0-or-later

/// The Bluetooth Core specification a controller implements, as the HCI_Version / LMP_Version
/// byte of Read Local Version Information carries it (Assigned Numbers §2.1 "Core Specification
/// versions").
@frozen
public struct HCIVersion: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let v1_0b = HCIVersion(rawValue: 0x00)
    public static let v1_1 = HCIVersion(rawValue: 0x01)
    public static let v1_2 = HCIVersion(rawValue: 0x02)
    public static let v2_0 = HCIVersion(rawValue: 0x03)
    public static let v2_1 = HCIVersion(rawValue: 0x04)
    public static let v3_0 = HCIVersion(rawValue: 0x05)
    public static let v4_0 = HCIVersion(rawValue: 0x06)
    public static let v4_1 = HCIVersion(rawValue: 0x07)
    public static let v4_2 = HCIVersion(rawValue: 0x08)
    /// Bluetooth 5.0: extended advertising, and legacy non-connectable advertising below 100 ms.
    public static let v5_0 = HCIVersion(rawValue: 0x09)
    public static let v5_1 = HCIVersion(rawValue: 0x0A)
    public static let v5_2 = HCIVersion(rawValue: 0x0B)
    public static let v5_3 = HCIVersion(rawValue: 0x0C)
    public static let v5_4 = HCIVersion(rawValue: 0x0D)
    public static let v6_0 = HCIVersion(rawValue: 0x0E)
    public static let v6_1 = HCIVersion(rawValue: 0x0F)

    /// The marketing name (`5.0`, `2.1 + EDR`), or `nil` for a value newer than this table.
    public var name: String? {
        switch rawValue {
        case 0x00: "1.0b"
        case 0x01: "1.1"
        case 0x02: "1.2"
        case 0x03: "2.0 + EDR"
        case 0x04: "2.1 + EDR"
        case 0x05: "3.0 + HS"
        case 0x06: "4.0"
        case 0x07: "4.1"
        case 0x08: "4.2"
        case 0x09: "5.0"
        case 0x0A: "5.1"
        case 0x0B: "5.2"
        case 0x0C: "5.3"
        case 0x0D: "5.4"
        case 0x0E: "6.0"
        case 0x0F: "6.1"
        default: nil
        }
    }

    /// `Bluetooth 5.0 (0x09)`, or `unknown version (0x20)`.
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        let code = "0x" + (hex.count < 2 ? "0" + hex : hex)
        return name.map { "Bluetooth \($0) (\(code))" } ?? "unknown version (\(code))"
    }

    @inlinable
    public static func < (a: HCIVersion, b: HCIVersion) -> Bool { a.rawValue < b.rawValue }
}
