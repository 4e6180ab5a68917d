// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The JSON fields of a beacon of a format other than iBeacon, as `encode --format json` and
/// `decode --json` print them (iBeacon keeps its own, older shape without "format"). The names
/// are those of the golden vector files (Tests/BeaconCodecTests/Vectors/README.md).
enum BeaconFormatJSON {
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
