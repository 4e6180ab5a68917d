// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The events of `beacon scan --json` other than "report" (``SightingObject``) and "ranging"
/// (``RangingObject``): "scanning", "enter", "exit" and "stopped" (docs/schema/scan.schema.json),
/// the ``EventObject`` envelope and the kind's members. The one description of those members:
/// the scan prints ``EventLine/json``; a Swift program encodes and decodes the same (`Codable`, no
/// Foundation). Decoding an "event" that is not one of these is `DecodingError.dataCorrupted`
/// naming "event"; a missing member `keyNotFound`, a wrong type `typeMismatch`, each naming it.
public typealias ScanEventObject = EventLine<ScanEvent>

/// The kinds of a ``ScanEventObject`` and their members.
public enum ScanEvent: EventKind {
    /// The scan began on `adapter` in `mode` ("passive"/"active"), ranging `region` with the
    /// distance `model` (its name and parameters, as the scan writes them), as a phone `as`.
    case scanning(adapter: String, mode: String, region: Region, model: JSONValue, as: String)
    /// A beacon of the region arrived; `regionChanged`: the region itself was entered.
    case enter(beacon: BeaconKey, region: Region, regionChanged: Bool)
    /// A beacon of the region fell silent; `regionChanged`: the region itself was exited.
    case exit(beacon: BeaconKey, region: Region, regionChanged: Bool)
    case stopped

    /// Which kind this is (its "event" is the raw value).
    public var name: Name {
        switch self {
        case .scanning: .scanning
        case .enter: .enter
        case .exit: .exit
        case .stopped: .stopped
        }
    }

    /// The "event"s of this type.
    public enum Name: String, Sendable, CaseIterable {
        case scanning, enter, exit, stopped
    }

    /// A region: a UUID, major and minor, each `nil` (`null`) for any; or an Eddystone-UID
    /// namespace and instance.
    public struct Region: Sendable, Hashable {
        /// The UUID, `nil` for any.
        public var uuid: BeaconUUID?
        /// The major, `nil` for any.
        public var major: UInt16?
        /// The minor, `nil` for any.
        public var minor: UInt16?
        /// The Eddystone-UID namespace of a region of Eddystone beacons.
        public var namespace: EddystoneNamespace?
        /// The instance, `nil` for any of the namespace.
        public var instance: EddystoneInstance?
        public init(uuid: BeaconUUID?, major: UInt16?, minor: UInt16?, namespace: EddystoneNamespace? = nil, instance: EddystoneInstance? = nil) {
            self.uuid = uuid
            self.major = major
            self.minor = minor
            self.namespace = namespace
            self.instance = instance
        }

        /// `{"uuid","major","minor"}` (``BeaconObject/region(uuid:major:minor:)``), with
        /// `"namespace"` and `"instance"` for a region of Eddystone beacons.
        public var json: JSONValue {
            guard let namespace, case .object(let members) = BeaconObject.region(uuid: uuid, major: major, minor: minor) else {
                return BeaconObject.region(uuid: uuid, major: major, minor: minor)
            }
            return .object(members + [(BeaconObject.Key.namespace.rawValue, .string(namespace.description)),
                                      (BeaconObject.Key.instance.rawValue, .string(instance?.description))])
        }

        init(from c: KeyedDecodingContainer<BeaconObject.Key>) throws {
            let namespace: EddystoneNamespace? = c.contains(.namespace)
                ? try c.decodeNullable(forKey: .namespace) { try c.decode($0, as: "an Eddystone namespace") { EddystoneNamespace($0) } } : nil
            let instance: EddystoneInstance? = c.contains(.instance)
                ? try c.decodeNullable(forKey: .instance) { try c.decode($0, as: "an Eddystone instance") { EddystoneInstance($0) } } : nil
            self.init(uuid: try c.decodeNullable(forKey: .uuid) { try c.decode($0, as: "a UUID") { BeaconUUID($0) } },
                      major: try c.decodeNullable(forKey: .major) { try c.decodeInRange(UInt16.self, forKey: $0) },
                      minor: try c.decodeNullable(forKey: .minor) { try c.decodeInRange(UInt16.self, forKey: $0) },
                      namespace: namespace, instance: instance)
        }
    }

    /// The member names, written and read only through these (the beacon's are
    /// ``BeaconObject/Key``).
    enum Key: String, CodingKey {
        case event, adapter, mode, region, model, phone = "as", regionChanged = "region_changed"
    }

    /// The kind's members in the documented order.
    public var members: [(String, JSONValue)] {
        func m(_ key: Key, _ value: JSONValue) -> (String, JSONValue) { (key.rawValue, value) }
        let members: [(String, JSONValue)]
        switch self {
        case let .scanning(adapter, mode, region, model, phone):
            members = [m(.adapter, .string(adapter)), m(.mode, .string(mode)), m(.region, region.json), m(.model, model), m(.phone, .string(phone))]
        case let .enter(beacon, region, changed), let .exit(beacon, region, changed):
            members = BeaconObject.identityFields(beacon) + [m(.region, region.json), m(.regionChanged, .bool(changed))]
        case .stopped:
            members = []
        }
        return members
    }

    /// The "event" member.
    public var event: String { name.rawValue }

    /// Decodes the kind of a "scanning", "enter", "exit" or "stopped" line (see ``ScanEventObject``).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let name = try c.decode(.event, as: "a scan event (\(Name.allCases.map(\.rawValue).joined(separator: ", ")))") { Name(rawValue: $0) }
        func region() throws -> Region { try Region(from: c.nestedContainer(keyedBy: BeaconObject.Key.self, forKey: .region)) }
        switch name {
        case .scanning:
            self = .scanning(adapter: try c.decode(String.self, forKey: .adapter), mode: try c.decode(String.self, forKey: .mode),
                             region: try region(), model: try c.decode(JSONValue.self, forKey: .model), as: try c.decode(String.self, forKey: .phone))
        case .enter, .exit:
            let beacon = try BeaconObject.identity(in: decoder.container(keyedBy: BeaconObject.Key.self))
            let changed = try c.decode(Bool.self, forKey: .regionChanged)
            self = name == .enter ? .enter(beacon: beacon, region: try region(), regionChanged: changed)
                                  : .exit(beacon: beacon, region: try region(), regionChanged: changed)
        case .stopped:
            self = .stopped
        }
    }
}
