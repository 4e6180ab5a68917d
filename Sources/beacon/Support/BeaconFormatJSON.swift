// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation

/// The JSON fields of a beacon of any format, as `encode --format json` and `decode --json`
/// print them, "format" first (an iBeacon's fields are those it always had: uuid, major, minor,
/// power). The names are those of the golden vector files (Tests/BeaconCodecTests/Vectors/README.md).
enum BeaconFormatJSON {
    /// A beacon's fields as ``fields(_:)``, "format" first, but in the words of profiles, beside
    /// which they are printed: Eddystone's TX power at 0 m is "power_at_0m" ("tx_power" is the
    /// radio's output power there) and AltBeacon's reference RSSI "power" (dBm at 1 m, as an
    /// iBeacon's; "rssi" is what was received). What `list`, `encode PROFILE`, `scan` and
    /// `decode --capture` print.
    static func compatibleFields(_ beacon: AnyBeacon) -> [(String, JSONValue)] {
        let renamed = ["tx_power": "power_at_0m", "rssi": "power"]
        return fields(beacon).map { (renamed[$0.0] ?? $0.0, $0.1) }
    }

    /// The identity and power at 1 m of a non-iBeacon line of ``compatibleFields(_:)`` (what
    /// `scan --json` reports); `nil` when a field is missing or malformed.
    static func key(from object: [String: Any]) -> (BeaconKey, Int8?)? {
        func int(_ k: String) -> Int? { (object[k] as? NSNumber)?.intValue }
        let power = int("power").flatMap { Int8(exactly: $0) }
        let powerAt0m = int("power_at_0m").flatMap { Int8(exactly: $0 - EddystoneFormat.lossOverFirstMetre) }
        switch object["format"] as? String {
        case BeaconFormat.altBeacon.rawValue:
            guard let id = (object["id"] as? String).flatMap({ AltBeaconID($0) }), let m = int("manufacturer"),
                  let manufacturer = UInt16(exactly: m) else { return nil }
            return (.altBeacon(manufacturerID: manufacturer, id: id), power)
        case BeaconFormat.eddystoneUID.rawValue:
            guard let n = (object["namespace"] as? String).flatMap({ EddystoneNamespace($0) }),
                  let i = (object["instance"] as? String).flatMap({ EddystoneInstance($0) }) else { return nil }
            return (.eddystoneUID(namespace: n, instance: i), powerAt0m)
        case BeaconFormat.eddystoneURL.rawValue:
            guard let text = object["url"] as? String, let url = try? EddystoneURL(url: text) else { return nil }
            return (.eddystoneURL(scheme: url.scheme, encoded: url.encodedBytes), powerAt0m)
        default:
            return nil
        }
    }

    /// An identity: "format" and the format's identity fields (an iBeacon's uuid, major, minor).
    static func identityFields(_ key: BeaconKey) -> [(String, JSONValue)] {
        switch key {
        case .iBeacon(let id):
            return [("format", .string(key.format.rawValue)), ("uuid", .string(id.uuid.description)), ("major", .int(Int(id.major))), ("minor", .int(Int(id.minor)))]
        case .altBeacon(let manufacturer, let id):
            return [("format", .string(key.format.rawValue)), ("id", .string(id.description)), ("manufacturer", .int(manufacturer))]
        case .eddystoneUID(let namespace, let instance):
            return [("format", .string(key.format.rawValue)), ("namespace", .string(namespace.description)), ("instance", .string(instance.description))]
        case .eddystoneURL:
            return [("format", .string(key.format.rawValue)), ("url", .string(BeaconText.identity(key)))]
        }
    }

    static func fields(_ beacon: AnyBeacon) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [("format", .string(beacon.format.rawValue))]
        switch beacon {
        case .iBeacon(let b):
            out += [("uuid", .string(b.uuid.description)), ("major", .int(b.major)), ("minor", .int(b.minor)), ("power", .int(b.measuredPower))]
        case .eddystoneUID(let b):
            out += [("namespace", .string(b.namespace.description)), ("instance", .string(b.instance.description)), ("tx_power", .int(b.txPower))]
        case .eddystoneURL(let b):
            out += [("url", .string(b.url)), ("tx_power", .int(b.txPower))]
        case .eddystoneTLM(let b):
            out += [
                ("battery_mv", .int(b.batteryMillivolts)),
                // Raw signed 8.8 fixed point (-32768: not supported), and the same in °C.
                ("temperature", .int(b.temperature)),
                ("temperature_c", b.celsius.map { .double($0) } ?? .null),
                ("advertising_count", .int(b.advertisingCount)),
                ("uptime_tenths", .int(b.uptimeTenths)),
            ]
        case .altBeacon(let b):
            out += [("id", .string(b.id.description)), ("manufacturer", .int(b.manufacturerID)), ("rssi", .int(b.referenceRSSI)), ("reserved", .int(b.reserved))]
        }
        return out
    }
}
