// SPDX-License-Identifier: GPL-2.0-or-later

/// Advertising_Event_Properties of LE Set Extended Advertising Parameters (Core Vol 4 Part E
/// §7.8.53).
@frozen
public struct LEAdvertisingEventProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let connectable = LEAdvertisingEventProperties(rawValue: 1 << 0)
    public static let scannable = LEAdvertisingEventProperties(rawValue: 1 << 1)
    public static let directed = LEAdvertisingEventProperties(rawValue: 1 << 2)
    public static let highDutyCycleDirected = LEAdvertisingEventProperties(rawValue: 1 << 3)
    /// Send legacy PDUs (ADV_IND …): data limited to 31 bytes, seen by Bluetooth 4 scanners.
    public static let useLegacyPDUs = LEAdvertisingEventProperties(rawValue: 1 << 4)
    public static let omitAdvertiserAddress = LEAdvertisingEventProperties(rawValue: 1 << 5)
    public static let includeTxPower = LEAdvertisingEventProperties(rawValue: 1 << 6)

    /// Legacy ADV_NONCONN_IND through the extended commands: what an iBeacon set uses.
    public static let legacyNonConnectable: LEAdvertisingEventProperties = [.useLegacyPDUs]
    /// Legacy ADV_SCAN_IND.
    public static let legacyScannable: LEAdvertisingEventProperties = [.useLegacyPDUs, .scannable]
    /// Legacy ADV_IND.
    public static let legacyConnectable: LEAdvertisingEventProperties = [.useLegacyPDUs, .connectable, .scannable]

    /// The only combinations the spec allows with legacy PDUs (§7.8.53, Table 7.2).
    public static let allowedLegacyCombinations: [LEAdvertisingEventProperties] = [
        [.useLegacyPDUs, .connectable, .scannable],  // ADV_IND
        [.useLegacyPDUs, .connectable, .directed],  // ADV_DIRECT_IND low duty cycle
        [.useLegacyPDUs, .connectable, .directed, .highDutyCycleDirected],  // ADV_DIRECT_IND high duty cycle
        [.useLegacyPDUs, .scannable],  // ADV_SCAN_IND
        [.useLegacyPDUs],  // ADV_NONCONN_IND
    ]
}
