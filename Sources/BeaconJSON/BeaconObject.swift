// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The one definition of a beacon as JSON: its fields, "format" first, then the format's own
/// (an iBeacon's are those it always had: uuid, major, minor, power). Every command that prints
/// a beacon (`encode`, `decode`, `list`, `scan`) prints these members, and `locate --trace`
/// reads them back with ``key(from:)``. The schemas are docs/schema/beacon.schema.json and
/// docs/schema/identity.schema.json.
public enum BeaconObject {
    /// Which words a beacon's power fields take.
    public enum Naming: Sendable {
        /// The golden vector files' words (Tests/BeaconCodecTests/Vectors/README.md), as
        /// `decode` and `encode --format json` print a payload: Eddystone's "tx_power" (at 0 m),
        /// AltBeacon's "rssi" (its reference RSSI).
        case payload
        /// The words of profiles, beside which `list`, `encode PROFILE`, `scan` and
        /// `decode --capture` print beacons: Eddystone's TX power at 0 m is "power_at_0m"
        /// ("tx_power" is the radio's output power there) and AltBeacon's reference RSSI "power"
        /// (dBm at 1 m, as an iBeacon's; "rssi" is what was received).
        case profile
    }

    /// The name of every member a beacon object may have, in the order they are written: the one
    /// spelling of them for the writer (``fields(_:naming:)``), the readers (``key(from:)``) and
    /// ``CodableBeacon``'s `Codable` conformance.
    public enum Key: String, CodingKey, Sendable, CaseIterable {
        case format
        case uuid, major, minor, power
        case namespace, instance
        case url
        /// Eddystone's TX power at 0 m in payload words.
        case txPower = "tx_power"
        /// Eddystone's TX power at 0 m in profile words.
        case powerAt0m = "power_at_0m"
        case batteryMillivolts = "battery_mv", temperature, temperatureCelsius = "temperature_c"
        case advertisingCount = "advertising_count", uptimeTenths = "uptime_tenths"
        case id, manufacturer
        /// AltBeacon's reference RSSI in payload words.
        case rssi
        case reserved
    }

    /// A beacon's members, "format" first, in `naming`'s words.
    public static func fields(_ beacon: AnyBeacon, naming: Naming) -> [(String, JSONValue)] {
        var members = MemberList()
        emit(beacon, naming: naming, to: &members)
        return members.members
    }

    /// Appends the members of ``fields(_:naming:)``, comma-separated, without braces, as UTF-8 to
    /// `bytes`, without building them first: `decode --capture` writes millions of lines.
    public static func write(_ beacon: AnyBeacon, naming: Naming, to bytes: inout [UInt8]) {
        var writer = MemberBytes()
        swap(&writer.bytes, &bytes)
        emit(beacon, naming: naming, to: &writer)
        swap(&writer.bytes, &bytes)
    }

    /// The one list of a beacon's members, for both of the above.
    static func emit(_ beacon: AnyBeacon, naming: Naming, to out: inout some MemberSink) {
        let profile = naming == .profile
        out.add(.format, .string(beacon.format.rawValue))
        switch beacon {
        case .iBeacon(let b):
            out.add(.uuid, b.uuid)
            out.add(.major, .int(b.major))
            out.add(.minor, .int(b.minor))
            out.add(.power, .int(b.measuredPower))
        case .eddystoneUID(let b):
            out.add(.namespace, .string(b.namespace.description))
            out.add(.instance, .string(b.instance.description))
            out.add(profile ? .powerAt0m : .txPower, .int(b.txPower))
        case .eddystoneURL(let b):
            out.add(.url, .string(b.url))
            out.add(profile ? .powerAt0m : .txPower, .int(b.txPower))
        case .eddystoneTLM(let b):
            out.add(.batteryMillivolts, .int(b.batteryMillivolts))
            // Raw signed 8.8 fixed point (-32768: not supported), and the same in °C.
            out.add(.temperature, .int(b.temperature))
            out.add(.temperatureCelsius, b.celsius.map { .double($0) } ?? .null)
            out.add(.advertisingCount, .int(b.advertisingCount))
            out.add(.uptimeTenths, .int(b.uptimeTenths))
        case .altBeacon(let b):
            out.add(.id, .string(b.id.description))
            out.add(.manufacturer, .int(b.manufacturerID))
            out.add(profile ? .power : .rssi, .int(b.referenceRSSI))
            out.add(.reserved, .int(b.reserved))
        }
    }

    /// An identity: "format" and the format's identity fields (an iBeacon's uuid, major, minor),
    /// the members of ``fields(_:naming:)`` that name the beacon.
    public static func identityFields(_ key: BeaconKey) -> [(String, JSONValue)] {
        let format: (String, JSONValue) = (Key.format.rawValue, .string(key.format.rawValue))
        switch key {
        case .iBeacon(let id):
            return [format, (Key.uuid.rawValue, .string(id.uuid.description)), (Key.major.rawValue, .int(id.major)), (Key.minor.rawValue, .int(id.minor))]
        case .altBeacon(let manufacturer, let id):
            return [format, (Key.id.rawValue, .string(id.description)), (Key.manufacturer.rawValue, .int(manufacturer))]
        case .eddystoneUID(let namespace, let instance):
            return [format, (Key.namespace.rawValue, .string(namespace.description)), (Key.instance.rawValue, .string(instance.description))]
        case .eddystoneURL(let scheme, let encoded):
            let url = encoded.withUnsafeBytes { EddystoneURL(scheme: scheme, encoded: $0, txPower: 0)?.url } ?? Hex.string(encoded)
            return [format, (Key.url.rawValue, .string(url))]
        }
    }

    /// The identity and power at 1 m of an object with the members of ``fields(_:naming:)`` in
    /// profile words; `nil` when "format" is missing or unknown, TLM (no identity), or a field is
    /// missing or malformed. Without "format" an object is read as an iBeacon, as plain trace
    /// lines always were.
    public static func key(from object: JSONObjectView) -> (key: BeaconKey, powerAt1m: Int8?)? {
        let power = object.int(Key.power.rawValue).flatMap { Int8(exactly: $0) }
        let powerAt0m = object.int(Key.powerAt0m.rawValue).flatMap { Int8(exactly: $0 - EddystoneFormat.lossOverFirstMetre) }
        switch object.string(Key.format.rawValue) ?? BeaconFormat.iBeacon.rawValue {
        case BeaconFormat.iBeacon.rawValue:
            guard let uuid = object.string(Key.uuid.rawValue).flatMap({ BeaconUUID($0) }),
                  let major = object.int(Key.major.rawValue).flatMap({ UInt16(exactly: $0) }),
                  let minor = object.int(Key.minor.rawValue).flatMap({ UInt16(exactly: $0) }) else { return nil }
            return (.iBeacon(BeaconIdentity(uuid: uuid, major: major, minor: minor)), power)
        case BeaconFormat.altBeacon.rawValue:
            guard let id = object.string(Key.id.rawValue).flatMap({ AltBeaconID($0) }),
                  let manufacturer = object.int(Key.manufacturer.rawValue).flatMap({ UInt16(exactly: $0) }) else { return nil }
            return (.altBeacon(manufacturerID: manufacturer, id: id), power)
        case BeaconFormat.eddystoneUID.rawValue:
            guard let n = object.string(Key.namespace.rawValue).flatMap({ EddystoneNamespace($0) }),
                  let i = object.string(Key.instance.rawValue).flatMap({ EddystoneInstance($0) }) else { return nil }
            return (.eddystoneUID(namespace: n, instance: i), powerAt0m)
        case BeaconFormat.eddystoneURL.rawValue:
            guard let text = object.string(Key.url.rawValue), let url = try? EddystoneURL(url: text) else { return nil }
            return (.eddystoneURL(scheme: url.scheme, encoded: url.encodedBytes), powerAt0m)
        default:
            return nil
        }
    }

    /// A region (`scan --uuid/--major/--minor`): every member `null` when it matches any value.
    public static func region(uuid: BeaconUUID?, major: UInt16?, minor: UInt16?) -> JSONValue {
        .object([(Key.uuid.rawValue, .string(uuid?.description)), (Key.major.rawValue, .int(major)), (Key.minor.rawValue, .int(minor))])
    }
}

/// Typed reading of a JSON object's members (the first member of a name wins).
public struct JSONObjectView {
    /// The object's members, in order.
    public let members: [(String, JSONValue)]

    public init(_ members: [(String, JSONValue)]) { self.members = members }

    /// The member named `key`; `nil` when there is none.
    public subscript(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }

    /// A string member; `nil` when missing or of another type.
    public func string(_ key: String) -> String? {
        if case .string(let s)? = self[key] { return s }
        return nil
    }

    /// An integer member; a number with a fraction is not one.
    public func int(_ key: String) -> Int? {
        switch self[key] {
        case .int(let i)?: return i
        case .double(let d)?: return Int(exactly: d)
        default: return nil
        }
    }

    /// A number member, integer or not (finite or not: callers decide).
    public func double(_ key: String) -> Double? {
        switch self[key] {
        case .int(let i)?: return Double(i)
        case .double(let d)?: return d
        default: return nil
        }
    }
}

/// Where `BeaconObject.emit(_:naming:to:)` puts members: a list, or bytes.
protocol MemberSink {
    mutating func add(_ key: BeaconObject.Key, _ value: JSONValue)
    /// A UUID as a string member (the byte writer skips building its `String`).
    mutating func add(_ key: BeaconObject.Key, _ uuid: BeaconUUID)
}

extension MemberSink {
    mutating func add(_ key: BeaconObject.Key, _ uuid: BeaconUUID) { add(key, .string(uuid.description)) }
}

struct MemberList: MemberSink {
    var members: [(String, JSONValue)] = []
    mutating func add(_ key: BeaconObject.Key, _ value: JSONValue) { members.append((key.rawValue, value)) }
}

struct MemberBytes: MemberSink {
    var bytes: [UInt8] = []
    var first = true
    mutating func add(_ key: BeaconObject.Key, _ value: JSONValue) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        JSONValue.string(key.rawValue).write(to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        value.write(to: &bytes)
    }

    mutating func add(_ key: BeaconObject.Key, _ uuid: BeaconUUID) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        JSONValue.string(key.rawValue).write(to: &bytes)
        bytes.append(contentsOf: ":\"".utf8)
        uuid.appendText(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}
