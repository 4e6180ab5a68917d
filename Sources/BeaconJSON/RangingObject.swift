// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One beacon of a `beacon scan --json` "ranging" event (docs/schema/scan.schema.json,
/// "ranging-entry"): its identity, power at 1 m, and what ranging made of it, rounded as the
/// caller chose. `Codable` for a Swift program: it encodes the members ``json`` writes and
/// decodes them back, throwing a `DecodingError` that names a missing or malformed member.
public struct RangingEntryObject: Sendable, Hashable, Codable {
    /// The beacon's identity (its format's own fields).
    public var identity: BeaconKey
    /// Its power at 1 m (dBm), the reference ranging used.
    public var power: Int8
    /// The smoothed RSSI (dBm); `nil` before any.
    public var rssi: Double?
    /// The estimated distance (m); `nil` when unknown.
    public var accuracy: Double?
    /// immediate, near, far or unknown.
    public var proximity: String
    /// Seconds since it was last heard.
    public var lastSeen: Double
    /// How many advertising reports a second were heard.
    public var reportsPerSecond: Double
    /// The advertiser's address it was last heard from.
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

    /// The members after the identity's, in the order they are written.
    enum CodingKeys: String, CodingKey {
        case power, rssi, accuracy, proximity, lastSeen = "last_seen", reportsPerSecond = "reports_per_second", address
    }

    /// The entry's object: the identity, then power, rssi, accuracy, proximity, last_seen,
    /// reports_per_second and address.
    public var json: JSONValue {
        .object(BeaconObject.identityFields(identity) + [
            (CodingKeys.power.rawValue, .int(power)),
            (CodingKeys.rssi.rawValue, rssi.map(JSONValue.double) ?? .null),
            (CodingKeys.accuracy.rawValue, accuracy.map(JSONValue.double) ?? .null),
            (CodingKeys.proximity.rawValue, .string(proximity)),
            (CodingKeys.lastSeen.rawValue, .double(lastSeen)),
            (CodingKeys.reportsPerSecond.rawValue, .double(reportsPerSecond)),
            (CodingKeys.address.rawValue, .string(address.description)),
        ])
    }

    /// Encodes the members of ``json``.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// Decodes an entry: the identity's members, then the others; a missing or malformed member
    /// throws a `DecodingError` naming it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(identity: try BeaconObject.identity(in: decoder.container(keyedBy: BeaconObject.Key.self)),
                  power: try c.decodeInRange(Int8.self, forKey: .power),
                  rssi: try c.decodeNullable(forKey: .rssi) { try c.decode(Double.self, forKey: $0) },
                  accuracy: try c.decodeNullable(forKey: .accuracy) { try c.decode(Double.self, forKey: $0) },
                  proximity: try c.decode(String.self, forKey: .proximity),
                  lastSeen: try c.decode(Double.self, forKey: .lastSeen),
                  reportsPerSecond: try c.decode(Double.self, forKey: .reportsPerSecond),
                  address: try c.decode(.address, as: "a Bluetooth address") { BluetoothAddress($0) })
    }
}

/// A `beacon scan --json` "ranging" event: the ``EventObject`` envelope and "beacons", every
/// beacon in range (docs/schema/scan.schema.json). `Codable` as ``RangingEntryObject`` is.
public struct RangingObject: Sendable, Hashable, Codable {
    /// Seconds since the scan began.
    public var time: Double
    /// Every beacon in range.
    public var beacons: [RangingEntryObject]

    public init(time: Double, beacons: [RangingEntryObject]) {
        self.time = time
        self.beacons = beacons
    }

    /// The "event" of a ranging line.
    public static let event = "ranging"

    enum CodingKeys: String, CodingKey {
        case time, event, beacons
    }

    /// The line's object.
    public var json: JSONValue {
        EventObject.object(time: time, event: Self.event, [(CodingKeys.beacons.rawValue, .array(beacons.map(\.json)))])
    }

    /// Encodes the members of ``json``.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// Decodes a ranging line; "event" must be "ranging".
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decodeEvent(Self.event, forKey: .event)
        self.init(time: try c.decode(Double.self, forKey: .time), beacons: try c.decode([RangingEntryObject].self, forKey: .beacons))
    }
}
