// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio
import HCI

/// One validated beacon: what it advertises (an iBeacon, an AltBeacon, an Eddystone UID or URL
/// frame) plus how to advertise it.
public struct BeaconProfile: Hashable, Sendable {
    public var name: String
    /// The frame it advertises, in its format (`format:` in the profile; iBeacon by default).
    public var beacon: AnyBeacon
    /// Eddystone telemetry interleaved with the UID or URL frame, if the profile asks for it.
    public var telemetry: TelemetryPlan?
    /// Deliberately non-conforming advertising data sent instead of ``beacon``'s frame, for
    /// testing receivers (`format: raw` with `data:`, or `patch:` over the encoded frame): only its
    /// length was checked. ``beacon`` still names the beacon (identity, derived address).
    public var rawData: AdvertisingPayload?
    /// Advertising interval in milliseconds, 20…10240 (default 100), as the profile gives it.
    /// Decimals are allowed; what goes on air is the nearest 0.625 ms unit, which
    /// `AdvertisingInterval(milliseconds:)` (HCI) works out.
    public var intervalMilliseconds: Double
    /// Radio output power in dBm (−127…20), or `nil` to let the controller choose.
    public var txPower: Int8?
    /// A random static address (two most significant bits 11); derived from the identity when the
    /// profile gives none, see ``derivedAddress(for:)-(AnyBeacon)``.
    public var address: BluetoothAddress
    /// Whether ``address`` was derived rather than written in the profile.
    public var addressIsDerived: Bool
    /// The Flags AD structure (default `0x06`).
    public var flags: BeaconFlags
    /// A Complete Local Name sent in the scan response (`local_name:`): the beacon then
    /// advertises scannable (ADV_SCAN_IND), so active scanners (phones) get the name.
    public var localName: String?
    public var position: Point?
    /// How much more (or, negative, less) the beacon radiates than its measured power claims, dB
    /// (`calibration_error:`, default 0): a miscalibrated beacon, as real ones often are. Only
    /// the virtual air uses it (what a scanner there hears); the frame still claims the
    /// profile's figure. Within ``calibrationErrorRange``.
    public var calibrationError: Double = 0
    /// Where this beacon is declared (its mapping in the file, or its range entry).
    public var location: SourceLocation

    /// Builds a profile; without an `address` one is derived from the identity.
    public init(
        name: String,
        beacon: AnyBeacon,
        telemetry: TelemetryPlan? = nil,
        intervalMilliseconds: Double = BeaconProfile.defaultIntervalMilliseconds,
        txPower: Int8? = nil,
        address: BluetoothAddress? = nil,
        flags: BeaconFlags = .generalDiscoverable,
        position: Point? = nil,
        location: SourceLocation = SourceLocation(file: "", line: 0, column: 0)
    ) {
        self.name = name
        self.beacon = beacon
        self.telemetry = telemetry
        self.intervalMilliseconds = intervalMilliseconds
        self.txPower = txPower
        self.address = address ?? Self.derivedAddress(for: beacon)
        self.addressIsDerived = address == nil
        self.flags = flags
        self.position = position
        self.location = location
    }

    /// An iBeacon's profile (the format every profile had before `format:`).
    public init(
        name: String,
        beacon: IBeacon,
        intervalMilliseconds: Double = BeaconProfile.defaultIntervalMilliseconds,
        txPower: Int8? = nil,
        address: BluetoothAddress? = nil,
        flags: BeaconFlags = .generalDiscoverable,
        position: Point? = nil,
        location: SourceLocation = SourceLocation(file: "", line: 0, column: 0)
    ) {
        self.init(name: name, beacon: .iBeacon(beacon), intervalMilliseconds: intervalMilliseconds, txPower: txPower,
                  address: address, flags: flags, position: position, location: location)
    }

    /// The format it advertises.
    public var format: BeaconFormat { beacon.format }
    /// Sends `data` instead of the frame (deliberately non-conforming); a derived address is
    /// derived again, from the data, so the beacon and its broken variants differ on the air.
    public mutating func override(with data: AdvertisingPayload) {
        rawData = data
        if addressIsDerived { address = Self.derivedAddress(forRaw: data) }
    }

    /// What goes on air: ``rawData`` when the profile overrides the frame, otherwise the frame
    /// encoded with ``flags``. The one place the emulator and `encode` take the bytes from.
    public var advertisingData: AdvertisingPayload { rawData ?? beacon.advertisingData(flags: flags) }

    /// The scan response data: the local name's AD structure; `nil` without a name (then the
    /// beacon is not scannable).
    public var scanResponse: AdvertisingPayload? { localName.flatMap { LocalName.scanResponse($0) } }
    /// The iBeacon it advertises, when its format is iBeacon.
    public var iBeacon: IBeacon? { beacon.iBeacon }
}

// What profile files may say, kept in one place so the loader's checks and messages agree.
extension BeaconProfile {
    /// 20 ms to 10.24 s: the legacy advertising interval range, which every controller accepts.
    public static let intervalRange: ClosedRange<Double> = AdvertisingInterval.legacyMillisecondRange
    public static let defaultIntervalMilliseconds: Double = 100
    /// Eddystone's TX power at 0 m when `power_at_0m` is not given (BeaconCodec's default power at
    /// 1 m plus 41 dB); `measured_power` and `rssi` default to BeaconCodec's
    /// `IBeacon.defaultMeasuredPower`.
    public static let defaultPowerAt0m: Int8 = EddystoneFormat.defaultPowerAt0m
    /// Advertising_TX_Power of LE Set Extended Advertising Parameters (Core Vol 4 Part E §7.8.53):
    /// −127…+20 dBm (0x7F, "no preference", is expressed by leaving `tx_power` out).
    public static let calibrationErrorRange: ClosedRange<Double> = -40...40
    public static let txPowerRange: ClosedRange<Int> = Int(HCIValidation.txPowerRange.lowerBound)...Int(HCIValidation.txPowerRange.upperBound)
}
