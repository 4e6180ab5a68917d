// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The rules shared by several commands, in one place so every command applies them alike.
/// (Advertising interval limits live with ``AdvertisingInterval``.)
public enum HCIValidation {
    /// The highest advertising set handle (Core Vol 4 Part E §7.8.53).
    public static let maximumAdvertisingHandle: UInt8 = 0xEF
    /// Legacy advertising PDUs carry at most 31 bytes of data.
    public static let legacyDataLimit = 31
    /// LE Set Extended Advertising Data carries at most 251 bytes per command.
    public static let extendedDataFragmentLimit = 251
    /// TX power in dBm; 0x7F means "no preference".
    public static let txPowerRange: ClosedRange<Int8> = -127...20
    public static let txPowerNoPreference: Int8 = 0x7F

    @inlinable
    public static func checkInterval(min: AdvertisingInterval, max: AdvertisingInterval, allowed: ClosedRange<AdvertisingInterval>) throws(HCIValidationError) {
        guard allowed.contains(min) else { throw .advertisingIntervalOutOfRange(field: "minimum advertising interval", value: min, allowed: allowed) }
        guard allowed.contains(max) else { throw .advertisingIntervalOutOfRange(field: "maximum advertising interval", value: max, allowed: allowed) }
        guard min <= max else { throw .advertisingIntervalMinAboveMax(min: min, max: max) }
    }

    @inlinable
    public static func checkHandle(_ handle: UInt8) throws(HCIValidationError) {
        guard handle <= maximumAdvertisingHandle else { throw .advertisingHandleOutOfRange(handle) }
    }

    @inlinable
    public static func checkTxPower(_ power: Int8) throws(HCIValidationError) {
        guard txPowerRange.contains(power) || power == txPowerNoPreference else { throw .txPowerOutOfRange(power) }
    }

    /// Advertising data length for one PDU kind.
    @inlinable
    public static func checkDataLength(_ length: Int, legacyPDUs: Bool) throws(HCIValidationError) {
        let limit = legacyPDUs ? legacyDataLimit : extendedDataFragmentLimit
        guard length <= limit else { throw .advertisingDataTooLong(length: length, maximum: limit, legacyPDUs: legacyPDUs) }
    }

    /// A random device address (Core Vol 6 Part B §1.3.2): the two top bits say which kind.
    /// Static (0b11) and non-resolvable private (0b00) addresses must not have the other 46 bits
    /// all 0 or all 1; 0b10 is reserved.
    public static func checkRandomAddress(_ address: BluetoothAddress) throws(HCIValidationError) {
        let rest = address.value & 0x3FFF_FFFF_FFFF
        switch address.value >> 46 {
        case 0b11:
            guard address.isStaticRandom else {
                throw .invalidRandomAddress(address, reason: "a random static address (top two bits 11) must not have the other 46 bits all 0 or all 1")
            }
        case 0b00:
            guard rest != 0, rest != 0x3FFF_FFFF_FFFF else {
                throw .invalidRandomAddress(address, reason: "a non-resolvable private address (top two bits 00) must not have the other 46 bits all 0 or all 1")
            }
        case 0b10:
            throw .invalidRandomAddress(address, reason: "the top two bits 10 are reserved; a random static address starts with C0…FF (top two bits 11)")
        default:
            break  // 0b01: resolvable private address, any hash/prand accepted here
        }
    }

    /// Extended advertising commands need the LE Extended Advertising feature, when known.
    public static func checkExtendedAdvertising(_ command: String, on controller: HCIControllerInfo) throws(HCIValidationError) {
        if let features = controller.leFeatures, !features.contains(.leExtendedAdvertising) {
            throw .unsupportedByController(command: command, reason: "it lacks the LE Extended Advertising feature (Bluetooth 5); use legacy advertising")
        }
        if controller.leFeatures == nil, let version = controller.hciVersion, version < .v5_0 {
            throw .unsupportedByController(command: command, reason: "it implements \(version), and extended advertising needs Bluetooth 5.0; use legacy advertising")
        }
    }

    @inlinable
    static func checkRange<T: BinaryInteger>(_ field: String, _ value: T, _ allowed: ClosedRange<T>, _ text: String) throws(HCIValidationError) {
        guard allowed.contains(value) else { throw .valueOutOfRange(field: field, value: UInt64(truncatingIfNeeded: value), allowed: text) }
    }
}
