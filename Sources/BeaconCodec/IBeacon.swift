// SPDX-License-Identifier: GPL-2.0-or-later

/// One iBeacon identity and its calibration, as carried in Apple's manufacturer-specific data.
///
/// Layout inside the payload (after `1A FF 4C 00 02 15`): proximity UUID (16 bytes, big-endian),
/// major (2 bytes, big-endian), minor (2 bytes, big-endian), measured power (1 byte, signed, dBm at
/// 1 m). Everything around it in Bluetooth is little-endian; these fields are not.
@frozen
public struct IBeacon: Hashable, Sendable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16
    /// Received signal strength at 1 m, in dBm (typically −50…−70); a signed byte on the air.
    public var measuredPower: Int8

    /// The power at 1 m when none is given: −59 dBm, the calibration of Apple's iBeacon examples.
    /// The one default of every format: AltBeacon's reference RSSI, Eddystone's power at 0 m
    /// (``EddystoneFormat/defaultPowerAt0m``), profiles, `encode` and ranging a frame without a
    /// power all start from it.
    public static let defaultMeasuredPower: Int8 = -59

    @inlinable
    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16, measuredPower: Int8 = IBeacon.defaultMeasuredPower) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    public var description: String {
        "\(uuid) major \(major) minor \(minor) power \(measuredPower) dBm"
    }
}

/// Byte-level constants of the iBeacon format.
public enum IBeaconFormat {
    /// Apple's company identifier (Bluetooth SIG assigned numbers), little-endian on the air: `4C 00`.
    public static let appleCompanyID: UInt16 = 0x004C
    /// The iBeacon type inside Apple's manufacturer data.
    public static let beaconType: UInt8 = 0x02
    /// The length of what follows the type byte: UUID 16 + major 2 + minor 2 + power 1.
    public static let beaconLength: UInt8 = 0x15
    /// Length byte of the manufacturer structure: type 1 + company 2 + type 1 + length 1 + 21.
    public static let manufacturerStructureLength: UInt8 = 0x1A
    /// Size of the whole manufacturer structure including its length byte.
    public static let manufacturerStructureSize = 27
    /// Size of the flags structure (`02 01 xx`).
    public static let flagsStructureSize = 3
    /// The largest legacy advertising payload (Core Vol 4 Part E §7.8.7).
    public static let legacyMaximum = 31
    /// The largest AdvData of one extended advertising PDU (AUX_ADV_IND/AUX_CHAIN_IND fragment).
    public static let extendedFragmentMaximum = 254
}
