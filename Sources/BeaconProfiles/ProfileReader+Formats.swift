// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Yams

/// `format:` and the fields only some formats take (docs/PROFILES.md, "Formats").
extension ProfileReader {
    static let formatAllowed = "must be one of: "
        + ProfileFormat.named.map(\.name).joined(separator: ", ") + ", raw (default ibeacon)"

    /// Reads `format`, the AltBeacon and Eddystone fields and `tlm`, whichever are present.
    func readFormatValues(_ fields: [String: Field], into values: inout EntryValues) {
        func read<T>(_ key: String, _ read: (Field) -> T?) -> T? {
            guard let f = fields[key] else { return nil }
            let value = read(f)
            if value == nil { values.fail(key) }
            return value
        }
        if let f = fields["format"], f.value.scalarText?.lowercased() == "raw", !f.value.isNull {
            values.isRaw = true
        }
        values.format = values.isRaw ? nil : read("format") { f in
            guard let text = self.scalar(f, path: "format", allowed: Self.formatAllowed) else { return nil }
            if text.lowercased() == BeaconFormat.eddystoneTLM.rawValue {
                self.sink.report(f.value, field: "format",
                                 "TLM frames carry no identity and go with a UID or URL frame: give `format: eddystone-uid` or `eddystone-url` and a `tlm:` mapping")
                return nil
            }
            guard let format = ProfileFormat.named.first(where: { $0.name == text.lowercased() })?.format else {
                self.sink.report(f.value, field: "format", Self.formatAllowed)
                return nil
            }
            return format
        }
        values.manufacturer = read("manufacturer") {
            self.integer($0, path: "manufacturer", range: 0...0xFFFF, unit: "a Bluetooth SIG company identifier, e.g. 0x0118")
        }
        values.reserved = read("reserved") { self.integer($0, path: "reserved", range: 0...0xFF, unit: "the AltBeacon manufacturer byte") }
        values.namespace = read("namespace") { f in
            let allowed = "must be a 10-byte Eddystone namespace: 20 hex digits like 8B0CA750E7A74E14BD99"
            guard let text = self.scalar(f, path: "namespace", allowed: allowed) else { return nil }
            guard let namespace = EddystoneNamespace(text) else {
                self.sink.report(f.value, field: "namespace", allowed)
                return nil
            }
            return namespace
        }
        values.instance = read("instance") { f in
            let allowed = "must be a 6-byte Eddystone instance: 12 hex digits like 000000000001"
            // An unquoted 000000000001 is an integer to YAML; its text is what was meant.
            guard let text = self.scalar(f, path: "instance", allowed: allowed) else { return nil }
            guard let instance = EddystoneInstance(text) else {
                self.sink.report(f.value, field: "instance", allowed)
                return nil
            }
            return instance
        }
        values.url = read("url") { f in
            let allowed = "must be a URL starting with http://, https://, http://www. or https://www."
            guard let text = self.scalar(f, path: "url", allowed: allowed) else { return nil }
            do throws(EddystoneURLError) {
                _ = try EddystoneURL(url: text)
            } catch {
                self.sink.report(f.value, field: "url", error.description)
                return nil
            }
            return text
        }
        values.powerAt0m = read("power_at_0m") {
            self.integer($0, path: "power_at_0m", range: EddystoneFormat.txPowerRange, unit: "dBm received at 0 m")
        }
        values.telemetry = read("tlm") { self.telemetry($0) }
        values.data = read("data") { self.rawData($0) }
        values.patches = read("patch") { self.patches($0) }
        values.localName = read("local_name") { f in
            guard let text = self.scalar(f, path: "local_name", allowed: Self.localNameAllowed) else { return nil }
            do throws(Template.SyntaxError) {
                let template = try Template(parsing: text, allowsWidth: true)
                if !template.hasPlaceholders, !self.checkLocalName(text, at: f.value) { return nil }
                return template
            } catch {
                self.sink.report(f.value, field: "local_name", error.message)
                return nil
            }
        }
    }

    static let localNameAllowed = "must be a name of 1 to \(LocalName.maximumBytes) bytes of UTF-8 without control characters (placeholders allowed)"

    /// A local name must fit the scan response (31 bytes less the AD header) and be printable.
    @discardableResult
    func checkLocalName(_ name: String, at node: Node) -> Bool {
        let bytes = name.utf8.count
        let bad = bytes == 0 || bytes > LocalName.maximumBytes
            || name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        guard bad else { return true }
        let shown = name == node.scalarText ? node.displayValue : "\(node.displayValue) → \(name)"
        let size = bytes > LocalName.maximumBytes ? " (this one has \(bytes))" : ""
        sink.report(sink.location(of: node), field: "local_name", value: shown, Self.localNameAllowed + size)
        return false
    }

    /// Reports the entry's own keys that its format does not take; `true` when there are none.
    /// Keys inherited from `defaults:` are not reported: a mixed fleet's defaults may hold
    /// fields for some of its formats only, and the others ignore them.
    func checkFormatKeys(_ fields: [String: Field], format: BeaconFormat, ownKeys: Set<String>?) -> Bool {
        let allowed = Set(ProfileKeys.formatSpecific[format] ?? []).union(ProfileKeys.common)
        var ok = true
        for (key, field) in fields.sorted(by: { $0.key < $1.key }) where !allowed.contains(key) && (ownKeys?.contains(key) ?? true) {
            let owners = ProfileFormat.named.filter { ProfileKeys.formatSpecific[$0.format]?.contains(key) == true }.map(\.name)
                + (ProfileKeys.raw.contains(key) ? ["raw"] : [])
            let hint = key == "measured_power" && format.isEddystone
                ? "; Eddystone frames carry `power_at_0m` (the power received at 0 m, measured at 1 m plus 41 dB)"
                : ""
            sink.report(sink.location(of: field.key), field: key, value: field.value.displayValue,
                        "not a field of \(format) beacons (it belongs to \(owners.joined(separator: ", ")))\(hint)")
            ok = false
        }
        return ok
    }

    /// Reports the required Eddystone fields that are absent; `true` when all are there.
    func checkRequiredEddystoneKeys(_ fields: [String: Field], format: BeaconFormat, at entry: Node) -> Bool {
        var ok = true
        func require(_ key: String, _ allowed: String) {
            if fields[key] == nil { missing(key, in: entry, allowed); ok = false }
        }
        switch format {
        case .eddystoneUID:
            require("namespace", "20 hex digits (10 bytes)")
            require("instance", "12 hex digits (6 bytes)")
        case .eddystoneURL:
            require("url", "a URL of at most 17 bytes once encoded")
        default: break
        }
        return ok
    }

    /// The frame one beacon of an entry advertises; `nil` only after a report.
    func frame(_ format: BeaconFormat, values: EntryValues, major: UInt16, minor: UInt16) -> AnyBeacon? {
        switch format {
        case .iBeacon:
            guard let uuid = values.uuid else { return nil }
            return .iBeacon(IBeacon(uuid: uuid, major: major, minor: minor,
                                    measuredPower: values.measuredPower.map(Int8.init) ?? IBeacon.defaultMeasuredPower))
        case .altBeacon:
            guard let uuid = values.uuid else { return nil }
            return .altBeacon(AltBeacon(
                manufacturerID: values.manufacturer.map(UInt16.init) ?? AltBeaconFormat.radiusNetworks,
                id: AltBeaconID(prefix: uuid, suffix: UInt32(major) << 16 | UInt32(minor)),
                referenceRSSI: values.measuredPower.map(Int8.init) ?? IBeacon.defaultMeasuredPower,
                reserved: values.reserved.map(UInt8.init) ?? 0))
        case .eddystoneUID:
            guard let namespace = values.namespace, let instance = values.instance else { return nil }
            return .eddystoneUID(EddystoneUID(namespace: namespace, instance: instance, txPower: powerAt0m(values)))
        case .eddystoneURL:
            guard let text = values.url, let url = try? EddystoneURL(url: text, txPower: powerAt0m(values)) else { return nil }
            return .eddystoneURL(url)
        case .eddystoneTLM:
            return nil
        }
    }

    private func powerAt0m(_ values: EntryValues) -> Int8 {
        values.powerAt0m.map(Int8.init) ?? BeaconProfile.defaultPowerAt0m
    }

    /// `prefix-major-minor` for iBeacons and AltBeacons (as always), `prefix-instance` for
    /// Eddystone-UID, `prefix-url` for Eddystone-URL.
    static func defaultName(_ prefix: String, beacon: AnyBeacon, major: Int, minor: Int) -> String {
        switch beacon {
        case .eddystoneUID(let b): return "\(prefix)-\(b.instance)"
        case .eddystoneURL: return "\(prefix)-url"
        default: return "\(prefix)-\(major)-\(minor)"
        }
    }

    /// `tlm:` — a mapping of `every`, `duration` (seconds), `battery` (mV) and `temperature`
    /// (°C or `none`).
    func telemetry(_ field: Field) -> TelemetryPlan? {
        guard let mapping = mapping(field, path: "tlm", expected: "a mapping of every, duration, battery and temperature") else { return nil }
        let keys = fields(of: mapping, at: field.value, allowed: ProfileKeys.tlm, path: "tlm")
        var plan = TelemetryPlan()
        var ok = true
        if let f = keys["every"] {
            if let s = number(f, path: "tlm.every", range: TelemetryPlan.periodRange, unit: "seconds between TLM bursts") {
                plan.period = .milliseconds((s * 1000).rounded())
            } else { ok = false }
        }
        if let f = keys["duration"] {
            if let s = number(f, path: "tlm.duration", range: TelemetryPlan.durationRange, unit: "seconds each TLM burst lasts") {
                plan.duration = .milliseconds((s * 1000).rounded())
            } else { ok = false }
        }
        if let f = keys["battery"] {
            if let mv = integer(f, path: "tlm.battery", range: 0...0xFFFF, unit: "millivolts; 0 = mains powered") {
                plan.batteryMillivolts = UInt16(mv)
            } else { ok = false }
        }
        if let f = keys["temperature"] {
            // `none`: no sensor (sent as 0x8000, Eddystone's "not supported").
            if f.value.scalarText?.lowercased() == "none" {
                plan.temperature = EddystoneTLM.temperatureNotSupported
            } else if let c = number(f, path: "tlm.temperature", range: TelemetryPlan.temperatureRange, unit: "°C (or none)"),
                      let fixed = EddystoneTLM.fixedPoint(celsius: c) {
                plan.temperature = fixed
            } else {
                ok = false
            }
        }
        guard ok else { return nil }
        if plan.duration >= plan.period {
            sink.report(keys["duration"]?.value ?? field.value, field: "tlm.duration",
                        "each TLM burst must be shorter than the time between bursts (`every`, \(plan.period))")
            return nil
        }
        return plan
    }
}

/// The names `format:` takes, in the order messages list them.
enum ProfileFormat {
    static let named: [(name: String, format: BeaconFormat)] = [
        ("ibeacon", .iBeacon), ("altbeacon", .altBeacon), ("eddystone-uid", .eddystoneUID), ("eddystone-url", .eddystoneURL),
    ]
}

extension BeaconFormat {
    /// iBeacon and AltBeacon identities are a UUID, a major and a minor (for AltBeacon: its
    /// 20-byte ID, as the Android Beacon Library splits it), so ranges work the same for both.
    var hasMajorMinor: Bool { self == .iBeacon || self == .altBeacon }
    var isEddystone: Bool { self == .eddystoneUID || self == .eddystoneURL || self == .eddystoneTLM }
}
