// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec

/// Writes beacons as a fleet profile that ``ProfileLoader`` reads back to the same beacons (what
/// `scan --save` writes). Every beacon is one flow mapping on one line, with only the keys that
/// differ from the defaults; an address is written unless it is the derived one.
public enum FleetWriter {
    /// The YAML text of a fleet named `name` (a comment line first, if given).
    public static func yaml(name: String, beacons: [BeaconProfile], comment: String? = nil) -> String {
        var lines: [String] = []
        if let comment { lines += comment.split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 } }
        lines.append("name: " + quoted(name))
        lines.append("beacons:")
        for beacon in beacons { lines.append("  - " + flowMapping(beacon)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One beacon as a profile entry on one line, a YAML flow mapping (`{name: "b", uuid: …}`):
    /// a fleet file's line, and a site's desired fleet (converted to JSON) carry the same.
    package static func flowMapping(_ beacon: BeaconProfile) -> String {
        "{" + fields(beacon).map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// One beacon's keys and YAML values, in the order docs/PROFILES.md lists them.
    static func fields(_ b: BeaconProfile) -> [(String, String)] {
        var out: [(String, String)] = [("name", quoted(b.name))]
        if let raw = b.rawData {
            out += [("format", "raw"), ("data", quoted(hex(raw)))]
        } else {
        switch b.beacon {
        case .iBeacon(let i):
            out += [("uuid", i.uuid.description), ("major", "\(i.major)"), ("minor", "\(i.minor)"), ("measured_power", "\(i.measuredPower)")]
        case .altBeacon(let a):
            out += [("format", BeaconFormat.altBeacon.rawValue), ("uuid", a.id.prefix.description),
                    ("major", "\(a.id.suffix >> 16)"), ("minor", "\(a.id.suffix & 0xFFFF)"), ("measured_power", "\(a.referenceRSSI)"),
                    ("manufacturer", "0x" + hex(UInt64(a.manufacturerID), digits: 4)), ("reserved", "\(a.reserved)")]
        case .eddystoneUID(let u):
            out += [("format", BeaconFormat.eddystoneUID.rawValue), ("namespace", quoted(u.namespace.description)),
                    ("instance", quoted(u.instance.description)), ("power_at_0m", "\(u.txPower)")]
        case .eddystoneURL(let u):
            out += [("format", BeaconFormat.eddystoneURL.rawValue), ("url", quoted(u.url)), ("power_at_0m", "\(u.txPower)")]
        case .eddystoneTLM:
            break  // never a profile's frame: TLM goes with a UID or URL frame (`tlm:`)
        }
        }
        if let t = b.telemetry {
            var tlm = ["every: \(seconds(t.period))", "duration: \(seconds(t.duration))", "battery: \(t.batteryMillivolts)"]
            if t.temperature != EddystoneTLM.temperatureNotSupported { tlm.append("temperature: \(Double(t.temperature) / 256)") }
            out.append(("tlm", "{" + tlm.joined(separator: ", ") + "}"))
        }
        if let name = b.localName { out.append(("local_name", quoted(name))) }
        if b.intervalMilliseconds != BeaconProfile.defaultIntervalMilliseconds { out.append(("interval", "\(b.intervalMilliseconds)")) }
        if let tx = b.txPower { out.append(("tx_power", "\(tx)")) }
        if !b.addressIsDerived { out.append(("address", quoted(b.address.description))) }
        if b.flags != .generalDiscoverable, b.rawData == nil { out.append(("flags", quoted(b.flags.description))) }
        if b.calibrationError != 0 { out.append(("calibration_error", "\(b.calibrationError)")) }
        if let p = b.position {
            out.append(("position", "{x: \(p.x), y: \(p.y)" + (p.z == 0 ? "" : ", z: \(p.z)") + "}"))
        }
        return out
    }

    /// A double-quoted YAML scalar: backslash and double quote escaped, the rest as is (names are
    /// printable, checked by the loader).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for c in text {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }

    static func seconds(_ d: Duration) -> String { NumberText.string(d / .milliseconds(1) / 1000) }

    static func hex(_ bytes: AdvertisingPayload) -> String { bytes.description }

    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
