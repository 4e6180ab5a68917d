// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A command parameter that would be refused by the controller (or silently misbehave), caught
/// before sending. Each message names the value, the allowed range and what to do.
public enum HCIValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An advertising interval outside the spec's range.
    case advertisingIntervalOutOfRange(field: String, value: AdvertisingInterval, allowed: ClosedRange<AdvertisingInterval>)
    /// Minimum interval greater than maximum.
    case advertisingIntervalMinAboveMax(min: AdvertisingInterval, max: AdvertisingInterval)
    /// Scannable or non-connectable legacy advertising faster than 100 ms on a controller older
    /// than Bluetooth 5.0, which the 4.x specification forbids.
    case advertisingIntervalTooShortForController(value: AdvertisingInterval, minimum: AdvertisingInterval, hciVersion: HCIVersion)
    /// More advertising data than the PDU type can carry.
    case advertisingDataTooLong(length: Int, maximum: Int, legacyPDUs: Bool)
    /// Advertising_Handle above 0xEF.
    case advertisingHandleOutOfRange(UInt8)
    /// Advertising_TX_Power outside −127…20 dBm and not 0x7F.
    case txPowerOutOfRange(Int8)
    /// A random address the spec does not allow.
    case invalidRandomAddress(BluetoothAddress, reason: String)
    /// Scan window longer than the scan interval.
    case scanWindowLongerThanInterval(window: UInt16, interval: UInt16)
    /// Event properties that legacy PDUs cannot express.
    case invalidLegacyEventProperties(UInt16)
    /// The same advertising handle listed twice.
    case duplicateAdvertisingHandle(UInt8)
    /// The controller lacks what the command needs.
    case unsupportedByController(command: String, reason: String)
    /// Any other parameter out of its range; `allowed` says what is.
    case valueOutOfRange(field: String, value: UInt64, allowed: String)

    public var description: String {
        switch self {
        case let .advertisingIntervalOutOfRange(field, value, allowed):
            "\(field) \(value) is outside the allowed \(allowed.lowerBound)…\(allowed.upperBound)"
        case let .advertisingIntervalMinAboveMax(min, max):
            "the minimum advertising interval \(min) is greater than the maximum \(max); make min ≤ max"
        case let .advertisingIntervalTooShortForController(value, minimum, hciVersion):
            "advertising interval \(value) is too short for a non-connectable or scannable beacon on a \(hciVersion) controller: before Bluetooth 5.0 the minimum is \(minimum); use 100 ms or more, or a Bluetooth 5 adapter"
        case let .advertisingDataTooLong(length, maximum, legacyPDUs):
            "\(length) bytes of advertising data is more than the \(maximum) allowed" + (legacyPDUs ? " with legacy advertising PDUs" : " in one command")
        case let .advertisingHandleOutOfRange(handle):
            "advertising set handle \(handle) (0x\(Hex.byte(handle))) is out of range: allowed 0…239 (0x00…0xEF)"
        case let .txPowerOutOfRange(power):
            "TX power \(power) dBm is out of range: allowed −127…20 dBm, or 127 (0x7F) for no preference"
        case let .invalidRandomAddress(address, reason):
            "random address \(address) is not valid: \(reason)"
        case let .scanWindowLongerThanInterval(window, interval):
            "scan window \(AdvertisingInterval(units: UInt32(window))) is longer than the scan interval \(AdvertisingInterval(units: UInt32(interval))); make window ≤ interval"
        case let .invalidLegacyEventProperties(bits):
            "advertising event properties 0x\(Hex.word(bits)) are not a legacy PDU type: with legacy PDUs use 0x0010 (non-connectable), 0x0012 (scannable), 0x0013 (connectable), 0x0015 or 0x001D (directed)"
        case let .duplicateAdvertisingHandle(handle):
            "advertising set handle \(handle) is listed more than once"
        case let .unsupportedByController(command, reason):
            "\(command) cannot be used on this controller: \(reason)"
        case let .valueOutOfRange(field, value, allowed):
            "\(field) \(value) (0x\(String(value, radix: 16, uppercase: true))) is out of range: allowed \(allowed)"
        }
    }
}
