// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One beacon of a `beacon scan --json` "ranging" event (docs/schema/scan-event.schema.json):
/// its identity, power at 1 m, and what ranging made of it, rounded as the caller chose.
public struct RangingEntryObject: Sendable {
    public var identity: BeaconKey
    public var power: Int8
    /// Smoothed RSSI (dBm); `nil` before any.
    public var rssi: Double?
    /// Estimated distance (m); `nil` when unknown.
    public var accuracy: Double?
    public var proximity: String
    /// Seconds since it was last heard.
    public var lastSeen: Double
    public var reportsPerSecond: Double
    public var address: BluetoothAddress

    public init(identity: BeaconKey, power: Int8, rssi: Double?, accuracy: Double?, proximity: String, lastSeen: Double,
                reportsPerSecond: Double, address: BluetoothAddress) {
        self.identity = identity
        self.power = power
        self.rssi = rssi
        self.accuracy = accuracy
        self.proximity = proximity
        self.lastSeen = lastSeen
        self.reportsPerSecond = reportsPerSecond
        self.address = address
    }

    public var json: JSONValue {
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
