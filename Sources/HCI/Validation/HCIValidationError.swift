// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A command parameter that would be refused by the controller (or silently misbehave), caught
/// before sending. Each message names the value, the allowed range and what to do.
public enum HCIValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An advertising interval outside the spec's range (units of 0.625 ms).
    case advertisingIntervalOutOfRange(field: String, value: UInt32, allowed: ClosedRange<UInt32>)
    /// Minimum interval greater than maximum.
    case advertisingIntervalMinAboveMax(min: UInt32, max: UInt32)
    /// Scannable or non-connectable legacy advertising faster than 100 ms on a controller older
    /// than Bluetooth 5.0, which the 4.x specification forbids.
    case advertisingIntervalTooShortForController(value: UInt32, minimum: UInt32, hciVersion: HCIVersion)
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
            "\(field) \(Self.interval(value)) is outside the allowed \(Self.interval(allowed.lowerBound))…\(Self.interval(allowed.upperBound))"
        case let .advertisingIntervalMinAboveMax(min, max):
            "the minimum advertising interval \(Self.interval(min)) is greater than the maximum \(Self.interval(max)); make min ≤ max"
        case let .advertisingIntervalTooShortForController(value, minimum, hciVersion):
            "advertising interval \(Self.interval(value)) is too short for a non-connectable or scannable beacon on a \(hciVersion) controller: before Bluetooth 5.0 the minimum is \(Self.interval(minimum)); use 100 ms or more, or a Bluetooth 5 adapter"
        case let .advertisingDataTooLong(length, maximum, legacyPDUs):
            "\(length) bytes of advertising data is more than the \(maximum) allowed" + (legacyPDUs ? " with legacy advertising PDUs" : " in one command")
        case let .advertisingHandleOutOfRange(handle):
            "advertising set handle \(handle) (0x\(Hex.byte(handle))) is out of range: allowed 0…239 (0x00…0xEF)"
        case let .txPowerOutOfRange(power):
            "TX power \(power) dBm is out of range: allowed −127…20 dBm, or 127 (0x7F) for no preference"
        case let .invalidRandomAddress(address, reason):
            "random address \(address) is not valid: \(reason)"
        case let .scanWindowLongerThanInterval(window, interval):
            "scan window \(Self.interval(UInt32(window))) is longer than the scan interval \(Self.interval(UInt32(interval))); make window ≤ interval"
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

    /// `0x00A0 (100 ms)`: an interval in 0.625 ms units shown both ways.
    static func interval(_ units: UInt32) -> String {
        let hex = String(units, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, (units > 0xFFFF ? 6 : 4) - hex.count)) + hex
        return "0x\(padded) (\(milliseconds(units)) ms)"
    }

    /// 0.625 ms units as decimal milliseconds without trailing zeros: 32 → `20`, 1 → `0.625`.
    static func milliseconds(_ units: UInt32) -> String {
        let micro = UInt64(units) * 625
        let whole = micro / 1000
        var fraction = String(micro % 1000)
        if fraction == "0" { return String(whole) }
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}
