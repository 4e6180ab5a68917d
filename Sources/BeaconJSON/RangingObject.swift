// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One beacon of a `beacon scan --json` "ranging" event (docs/schema/scan.schema.json,
/// "ranging-entry"): its identity, power at 1 m, and what ranging made of it, rounded as the
/// caller chose.
public enum RangingEntryObject {
    /// - Parameters:
    ///   - identity: the beacon's identity (its format's own fields).
    ///   - power: its power at 1 m (dBm), the reference ranging used.
    ///   - rssi: the smoothed RSSI (dBm); `nil` before any.
    ///   - accuracy: the estimated distance (m); `nil` when unknown.
    ///   - proximity: immediate, near, far or unknown.
    ///   - lastSeen: seconds since it was last heard.
    ///   - reportsPerSecond: how many advertising reports a second were heard.
    ///   - address: the advertiser's address it was last heard from.
    public static func json(identity: BeaconKey, power: Int8, rssi: Double?, accuracy: Double?, proximity: String, lastSeen: Double,
                            reportsPerSecond: Double, address: BluetoothAddress) -> JSONValue {
        .object(BeaconObject.identityFields(identity) + [
            ("power", .int(power)),
            ("rssi", rssi.map(JSONValue.double) ?? .null),
            ("accuracy", accuracy.map(JSONValue.double) ?? .null),
            ("proximity", .string(proximity)),
            ("last_seen", .double(lastSeen)),
            ("reports_per_second", .double(reportsPerSecond)),
            ("address", .string(address.description)),
        ])
    }
}
