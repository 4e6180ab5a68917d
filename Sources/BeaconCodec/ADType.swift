// SPDX-License-Identifier: GPL-2.0-or-later

/// An AD type (Bluetooth Assigned Numbers, "Common Data Types"). Unknown values are kept as they are.
@frozen
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let flags = ADType(rawValue: 0x01)
    public static let incomplete16BitUUIDs = ADType(rawValue: 0x02)
    public static let complete16BitUUIDs = ADType(rawValue: 0x03)
    public static let incomplete128BitUUIDs = ADType(rawValue: 0x06)
    public static let complete128BitUUIDs = ADType(rawValue: 0x07)
    public static let shortenedLocalName = ADType(rawValue: 0x08)
    public static let completeLocalName = ADType(rawValue: 0x09)
    public static let txPowerLevel = ADType(rawValue: 0x0A)
    public static let serviceData16BitUUID = ADType(rawValue: 0x16)
    public static let manufacturerSpecificData = ADType(rawValue: 0xFF)

    public var description: String {
        switch rawValue {
        case 0x01: return "Flags"
        case 0x02: return "Incomplete List of 16-bit Service UUIDs"
        case 0x03: return "Complete List of 16-bit Service UUIDs"
        case 0x06: return "Incomplete List of 128-bit Service UUIDs"
        case 0x07: return "Complete List of 128-bit Service UUIDs"
        case 0x08: return "Shortened Local Name"
        case 0x09: return "Complete Local Name"
        case 0x0A: return "Tx Power Level"
        case 0x16: return "Service Data - 16-bit UUID"
        case 0xFF: return "Manufacturer Specific Data"
        default: return "AD type 0x" + Hex.string([rawValue])
        }
    }
}
