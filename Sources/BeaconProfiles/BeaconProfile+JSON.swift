// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import HCI

/// The advertising interval as `list --json` and `encode --format json` print it, written once
/// so the commands agree (docs/schema/beacon.schema.json):
///
/// - `interval_ms`: what the profile (or `--interval`) asked for, as given (30.3);
/// - `interval_units`: the 0.625 ms units sent to the controller (48);
/// - `interval_on_air_ms`: what those units mean on air (30).
public enum IntervalJSON {
    public static func fields(requestedMilliseconds: Double) -> [(String, JSONValue)] {
        let onAir = AdvertisingInterval(milliseconds: requestedMilliseconds)
        return [
            ("interval_ms", .double(requestedMilliseconds)),
            ("interval_units", .int(onAir.rawValue)),
            ("interval_on_air_ms", .double(onAir.milliseconds)),
        ]
    }
}

extension BeaconProfile {
    /// The beacon as `list --json` prints it (docs/schema/list.schema.json): `file` (the profile
    /// file it is read from), its name, the members of BeaconJSON's `BeaconObject` in profile
    /// words, then flags, raw data, local name, interval, TX power, address and position (and
    /// `calibration_error` when it is not 0).
    public func json(file: String) -> JSONValue {
        let position: JSONValue = self.position.map { p in
            .object([("x", .double(p.x)), ("y", .double(p.y)), ("z", .double(p.z))])
        } ?? .null
        return .object([
            ("file", .string(file)),
            ("name", .string(name)),
        ] + BeaconObject.fields(beacon, naming: .profile) + [
            ("flags", .string(flags.description)),
            ("raw", rawData.map { .string($0.description) } ?? .null),
            ("local_name", .string(localName)),
        ] + IntervalJSON.fields(requestedMilliseconds: intervalMilliseconds) + [
            ("tx_power", .int(txPower)),
            ("address", .string(address.description)),
            ("address_derived", .bool(addressIsDerived)),
            ("position", position),
        ] + (calibrationError != 0 ? [("calibration_error", .double(calibrationError))] : []) + [
            ("location", .string(location.description)),
        ])
    }
}
