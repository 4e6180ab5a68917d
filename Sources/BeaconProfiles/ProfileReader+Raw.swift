// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Yams

/// Deliberately non-conforming advertising data for receiver tests: `format: raw` with `data:`
/// (hex), and `patch:` over any format's encoded frame. Checked only for what the controller
/// needs: at most 31 bytes (a legacy PDU's AdvData). docs/PROFILES.md, "Raw packets".
extension ProfileReader {
    static let dataAllowed = "must be advertising data in hex, 1 to \(AdvertisingPayload.capacity) bytes (spaces and colons between bytes allowed)"
    static let patchAllowed = "must be a list of {at: OFFSET, bytes: HEX}: bytes written over the encoded frame from OFFSET (0 to 30), within 31 bytes"

    func rawData(_ field: Field) -> AdvertisingPayload? {
        guard let text = scalar(field, path: "data", allowed: Self.dataAllowed) else { return nil }
        guard let bytes = Self.hexBytes(text), !bytes.isEmpty, let payload = AdvertisingPayload(bytes) else {
            let size = Self.hexBytes(text).map { " (this is \($0.count) bytes)" } ?? ""
            sink.report(field.value, field: "data", Self.dataAllowed + size)
            return nil
        }
        return payload
    }

    /// `patch:` items, each checked on its own.
    func patches(_ field: Field) -> [(at: Int, bytes: [UInt8], node: Node)]? {
        guard let list = field.value.sequence, !list.isEmpty else {
            sink.report(field.value, field: "patch", Self.patchAllowed)
            return nil
        }
        var out: [(at: Int, bytes: [UInt8], node: Node)] = []
        var ok = true
        for item in list {
            guard let mapping = item.mapping else {
                sink.report(item, field: "patch", Self.patchAllowed)
                ok = false
                continue
            }
            let keys = fields(of: mapping, at: item, allowed: ProfileKeys.patch, path: "patch")
            guard let at = keys["at"], let bytes = keys["bytes"] else {
                missing(keys["at"] == nil ? "patch.at" : "patch.bytes", in: item, "each patch gives `at` (offset 0 to 30) and `bytes` (hex)")
                ok = false
                continue
            }
            let offset = integer(at, path: "patch.at", range: 0...(AdvertisingPayload.capacity - 1), unit: "byte offset in the advertising data")
            let text = scalar(bytes, path: "patch.bytes", allowed: "must be hex bytes like 1B or 02 01 1A")
            let parsed = text.flatMap(Self.hexBytes)
            if text != nil, parsed?.isEmpty ?? true {
                sink.report(bytes.value, field: "patch.bytes", "must be hex bytes like 1B or 02 01 1A")
            }
            guard let offset, let parsed, !parsed.isEmpty else { ok = false; continue }
            out.append((offset, parsed, item))
        }
        return ok ? out : nil
    }

    /// `payload` with `patches` written over it in order; writing past the end extends it.
    func patch(_ payload: AdvertisingPayload, with patches: [(at: Int, bytes: [UInt8], node: Node)], at node: Node) -> AdvertisingPayload? {
        var bytes = Array(payload)
        for p in patches {
            let end = p.at + p.bytes.count
            guard p.at <= bytes.count, end <= AdvertisingPayload.capacity else {
                sink.report(p.node, field: "patch",
                            "writes bytes \(p.at)…\(end - 1) of a \(bytes.count)-byte frame: a patch may start at most at its end and stay within \(AdvertisingPayload.capacity) bytes")
                return nil
            }
            if end > bytes.count { bytes += [UInt8](repeating: 0, count: end - bytes.count) }
            bytes.replaceSubrange(p.at..<end, with: p.bytes)
        }
        return AdvertisingPayload(bytes)
    }

    /// A `format: raw` entry: its data, and the beacon a lenient receiver finds in it (which names
    /// it: identity, derived address, duplicates).
    func readRawEntry(_ fields: [String: Field], values: EntryValues, at entry: Node, namePrefix: String,
                      ownKeys: Set<String>?) -> [BeaconDeclaration] {
        var ok = values.ok
        for (key, field) in fields.sorted(by: { $0.key < $1.key }) where !ProfileKeys.raw.contains(key) && (ownKeys?.contains(key) ?? true) {
            sink.report(sink.location(of: field.key), field: key, value: field.value.displayValue,
                        "not a field of raw beacons (they take data, and name, interval, tx_power, address, position, calibration_error, local_name)")
            ok = false
        }
        guard let dataField = fields["data"] else {
            missing("data", in: entry, Self.dataAllowed)
            return []
        }
        // Other fields' issues leave the beacon checkable for duplicates (see `readEntry`).
        guard ok || values.identifies, let data = values.data else { return [] }
        guard let beacon = try? AnyBeacon(decoding: data, options: .lenient), beacon.key != nil else {
            sink.report(dataField.value, field: "data",
                        "holds no beacon even read leniently (iBeacon, AltBeacon, Eddystone UID or URL): the fleet could not tell which beacon it is; patch a beacon's frame instead (`patch:`)")
            return []
        }
        let entryLocation = sink.location(of: entry)
        let values1 = Template.Values(major: 0, minor: 0, index: 0)
        let name = values.nameTemplate?.renderDecimal(values1) ?? "\(namePrefix)-raw"
        if let f = fields["name"], !checkName(name, at: f.value) { return [] }
        var address: BluetoothAddress? = nil
        if let f = fields["address"], let template = values.addressTemplate {
            guard let parsed = staticAddress(template.renderOctets(values1), at: f.value) else { return [] }
            address = parsed
        }
        var profile = BeaconProfile(
            name: name, beacon: beacon,
            intervalMilliseconds: values.interval ?? BeaconProfile.defaultIntervalMilliseconds,
            txPower: values.txPower.map(Int8.init), address: address,
            position: values.position?.position(at: 0), location: entryLocation)
        profile.override(with: data)
        profile.calibrationError = values.calibrationError ?? 0
        if let f = fields["local_name"], let template = values.localName {
            let text = template.renderDecimal(values1)
            if checkLocalName(text, at: f.value) { profile.localName = text }
        }
        return [BeaconDeclaration(
            profile: profile, nameLocation: fields["name"].map { sink.location(of: $0.value) } ?? entryLocation,
            addressLocation: fields["address"].map { sink.location(of: $0.value) } ?? entryLocation)]
    }

    /// Hex bytes, with optional spaces, colons or hyphens between bytes; `nil` for anything else.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "-") })
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < digits.count {
            guard let hi = HexDigit.value(digits[i]), let lo = HexDigit.value(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
