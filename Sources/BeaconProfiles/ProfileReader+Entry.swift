// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconRadio
import Yams

/// One beacon as declared, with where its name and address came from, for duplicate reports.
struct BeaconDeclaration {
    var profile: BeaconProfile
    var nameLocation: SourceLocation
    var addressLocation: SourceLocation
}

extension ProfileReader {
    /// The most beacons one entry may expand to: every minor of one major.
    static let maximumEntrySize = 65536
    /// Names end up in logs, status lines and file names: keep them short and printable.
    static let maximumNameLength = 64

    /// Every field of an entry, read and checked one by one (`nil` where absent or invalid).
    struct EntryValues {
        var uuid: BeaconUUID?
        var majors: ClosedRange<Int>?
        var minors: ClosedRange<Int>?
        var measuredPower: Int?
        var interval: Double?
        var txPower: Int?
        var calibrationError: Double?
        var flags: BeaconFlags?
        var position: PositionPlan?
        var nameTemplate: Template?
        var addressTemplate: Template?
        var format: BeaconFormat?
        var manufacturer: Int?
        var reserved: Int?
        var namespace: EddystoneNamespace?
        var instance: EddystoneInstance?
        var url: String?
        var powerAt0m: Int?
        var telemetry: TelemetryPlan?
        var localName: Template?
        /// `format: raw`.
        var isRaw = false
        var data: AdvertisingPayload?
        var patches: [(at: Int, bytes: [UInt8], node: Node)]?
        /// Whether every field that is present is valid.
        var ok = true
        /// The keys whose values are invalid (reported already).
        var failed: Set<String> = []

        /// Whether the fields that make the beacons' names, identities and addresses are all
        /// valid (present or not), so the entry's beacons can still be checked for duplicates
        /// while other fields have issues: every problem of a file in one run.
        var identifies: Bool { failed.isDisjoint(with: ProfileKeys.identifying) }

        mutating func fail(_ key: String) {
            ok = false
            failed.insert(key)
        }
    }

    static let uuidExample = "a UUID like E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 (32 hex digits, hyphens optional)"

    /// Reads and checks the fields present in `fields`, reporting each problem; required fields
    /// that are absent are the caller's business. A fleet's `defaults:` go through this on their
    /// own, so a bad default is reported even when every beacon overrides it.
    func readValues(_ fields: [String: Field]) -> EntryValues {
        var values = EntryValues()
        func read<T>(_ key: String, _ read: (Field) -> T?) -> T? {
            guard let f = fields[key] else { return nil }
            let value = read(f)
            if value == nil { values.fail(key) }
            return value
        }
        values.uuid = read("uuid") { f in
            guard let text = self.scalar(f, path: "uuid", allowed: "must be " + Self.uuidExample) else { return nil }
            guard let uuid = BeaconUUID(text) else {
                self.sink.report(f.value, field: "uuid", "must be " + Self.uuidExample)
                return nil
            }
            return uuid
        }
        values.majors = read("major") { self.identityValues($0, path: "major") }
        values.minors = read("minor") { self.identityValues($0, path: "minor") }
        values.measuredPower = read("measured_power") {
            self.integer($0, path: "measured_power", range: Int(Int8.min)...Int(Int8.max), unit: "dBm at 1 m")
        }
        values.interval = read("interval") {
            self.number($0, path: "interval", range: BeaconProfile.intervalRange, unit: "milliseconds")
        }
        values.txPower = read("tx_power") {
            self.integer($0, path: "tx_power", range: BeaconProfile.txPowerRange, unit: "dBm")
        }
        values.calibrationError = read("calibration_error") {
            self.number($0, path: "calibration_error", range: BeaconProfile.calibrationErrorRange, unit: "dB radiated beyond the claimed power")
        }
        values.flags = read("flags") { self.flags($0) }
        values.position = read("position") { self.positionPlan($0) }
        values.nameTemplate = read("name") { self.template($0, path: "name", allowsWidth: true) }
        values.addressTemplate = read("address") { self.template($0, path: "address", allowsWidth: false) }
        readFormatValues(fields, into: &values)
        return values
    }

    /// Reads one beacon entry (a single-beacon file's top level, or a `beacons:` item merged with
    /// `defaults:`) and expands its ranges. Every field is checked even after a failure. When
    /// other fields have issues but the ones that name and identify the beacons are valid, the
    /// beacons are still produced, so that the caller's duplicate checks (names, identities,
    /// addresses) report in the same run; a file with any issue yields no fleet, so such beacons
    /// never reach the air.
    func readEntry(_ fields: [String: Field], at entry: Node, namePrefix: String, ownKeys: Set<String>? = nil) -> [BeaconDeclaration] {
        let entryLocation = sink.location(of: entry)
        let values = readValues(fields)
        // A format that is not understood leaves no way to say which fields are missing or wrong.
        if fields["format"] != nil, values.format == nil, !values.isRaw { return [] }
        if values.isRaw { return readRawEntry(fields, values: values, at: entry, namePrefix: namePrefix, ownKeys: ownKeys) }
        let format = values.format ?? .iBeacon
        let keysFit = checkFormatKeys(fields, format: format, ownKeys: ownKeys)
        var ok = values.ok && keysFit
        if format.hasMajorMinor {
            if fields["uuid"] == nil { missing("uuid", in: entry, Self.uuidExample) }
            if fields["major"] == nil { missing("major", in: entry, "an integer from 0 to 65535") }
            if fields["minor"] == nil { missing("minor", in: entry, "an integer from 0 to 65535") }
        } else if !checkRequiredEddystoneKeys(fields, format: format, at: entry) {
            ok = false
        }
        let (interval, txPower, flags) = (values.interval, values.txPower, values.flags)
        let (position, nameTemplate, addressTemplate) = (values.position, values.nameTemplate, values.addressTemplate)
        let single = 0...0
        let majors = format.hasMajorMinor ? values.majors : single
        let minors = format.hasMajorMinor ? values.minors : single
        guard ok || values.identifies,
              let majors, let minors, !format.hasMajorMinor || values.uuid != nil else { return [] }
        let entryValues = values

        let count = majors.count * minors.count
        if count > Self.maximumEntrySize {
            sink.report(entryLocation, field: "minor", value: "\(count) beacons",
                        "one entry may declare at most \(Self.maximumEntrySize) beacons (ranges on both major and minor multiply)")
            return []
        }
        ok = true  // from here on, only what the checks below find stops the expansion
        if count > 1 {
            // Placeholders that do not follow every range would repeat a name or an address.
            let needed = [majors.count > 1 ? "{major}" : nil, minors.count > 1 ? "{minor}" : nil]
                .compactMap { $0 }.joined(separator: " and ") + " (or {index})"
            if let f = fields["name"], let nameTemplate, !nameTemplate.isDistinct(majors: majors.count, minors: minors.count) {
                sink.report(f.value, field: "name",
                            "this entry declares \(count) beacons, which cannot share names; use \(needed) in it")
                ok = false
            }
            if let f = fields["position"], let position, !position.staysWithinLimits(count: count) {
                let limit = NumberText.string(Point.coordinateLimit)
                sink.report(f.value, field: "position.step",
                            "this entry's beacon \(count) (index \(count - 1)) would be more than \(limit) m from the origin; coordinates must be from -\(limit) to \(limit) metres")
                ok = false
            }
            if let f = fields["address"], let addressTemplate,
               !addressTemplate.isDistinct(majors: majors.count, minors: minors.count) {
                sink.report(f.value, field: "address",
                            "this entry declares \(count) beacons, which cannot share addresses; use \(needed) in it, or leave it out to derive one each")
                ok = false
            }
            guard ok else { return [] }
        }

        var declarations: [BeaconDeclaration] = []
        declarations.reserveCapacity(count)
        var index = 0
        for major in majors {
            for minor in minors {
                let values = Template.Values(major: UInt16(major), minor: UInt16(minor), index: index)
                guard let beacon = frame(format, values: entryValues, major: values.major, minor: values.minor) else { return [] }

                let name = nameTemplate?.renderDecimal(values) ?? Self.defaultName(namePrefix, beacon: beacon, major: major, minor: minor)
                let nameLocation = fields["name"].map { sink.location(of: $0.value) } ?? entryLocation
                if let f = fields["name"], !checkName(name, at: f.value) { return [] }

                var address: BluetoothAddress? = nil
                let addressLocation = fields["address"].map { sink.location(of: $0.value) } ?? entryLocation
                if let f = fields["address"], let addressTemplate {
                    // One report per entry: a bad pattern is wrong for all its beacons alike.
                    guard let parsed = staticAddress(addressTemplate.renderOctets(values), at: f.value) else { return [] }
                    address = parsed
                }

                var localName: String? = nil
                // A bad local name is reported once and leaves the beacon's name,
                // identity and address as they are: it is still checked for duplicates.
                if let f = fields["local_name"], let template = entryValues.localName {
                    let rendered = template.renderDecimal(values)
                    if checkLocalName(rendered, at: f.value) { localName = rendered }
                }
                var profile = BeaconProfile(
                    name: name, beacon: beacon, telemetry: entryValues.telemetry,
                    intervalMilliseconds: interval ?? BeaconProfile.defaultIntervalMilliseconds,
                    txPower: txPower.map(Int8.init), address: address,
                    flags: flags ?? .generalDiscoverable,
                    position: position?.position(at: index), location: entryLocation)
                profile.localName = localName
                profile.calibrationError = entryValues.calibrationError ?? 0
                if let patches = entryValues.patches, let f = fields["patch"] {
                    guard let patched = patch(profile.advertisingData, with: patches, at: f.value) else { return [] }
                    profile.override(with: patched)
                }
                declarations.append(BeaconDeclaration(profile: profile, nameLocation: nameLocation, addressLocation: addressLocation))
                index += 1
            }
        }
        return declarations
    }

    /// `0x06`, `0x1A` or `none` (and the other spellings ``BeaconFlags/init(text:)`` takes).
    func flags(_ field: Field) -> BeaconFlags? {
        let allowed = "must be 0x06 (LE General Discoverable, BR/EDR Not Supported), 0x1A (LE General Discoverable, simultaneous LE and BR/EDR) or none"
        guard let text = scalar(field, path: "flags", allowed: allowed) else { return nil }
        guard let flags = BeaconFlags(text: text) else {
            sink.report(field.value, field: "flags", allowed)
            return nil
        }
        return flags
    }

    /// A name or address text, with placeholders checked.
    func template(_ field: Field, path: String, allowsWidth: Bool) -> Template? {
        let allowed = path == "address"
            ? "must be a random static address like C0:11:22:33:44:55 (placeholders allowed)"
            : "must be a name (text; placeholders allowed)"
        guard let text = scalar(field, path: path, allowed: allowed) else { return nil }
        do throws(Template.SyntaxError) {
            let template = try Template(parsing: text, allowsWidth: allowsWidth)
            // A fixed address or name is checked here, once, rather than per beacon; so is one in
            // `defaults:` that every beacon overrides.
            if path == "address", !template.hasPlaceholders, staticAddress(text, at: field.value) == nil { return nil }
            if path == "name", !template.hasPlaceholders, !checkName(text, at: field.value) { return nil }
            return template
        } catch {
            sink.report(field.value, field: path, error.message)
            return nil
        }
    }

    /// Parses an address and requires it to be random static (Core Vol 6 Part B §1.3.2.1): a
    /// beacon that invents its own address may only use that kind.
    func staticAddress(_ text: String, at node: Node) -> BluetoothAddress? {
        let rendered = text == node.scalarText ? node.displayValue : "\(node.displayValue) → \(text)"
        guard let address = BluetoothAddress(text) else {
            sink.report(sink.location(of: node), field: "address", value: rendered,
                        "must be six hex octets like C0:11:22:33:44:55")
            return nil
        }
        guard address.isStaticRandom else {
            sink.report(sink.location(of: node), field: "address", value: rendered,
                        "must be a random static address: first octet C0 to FF (top two bits 11), the other 46 bits neither all 0 nor all 1")
            return nil
        }
        return address
    }

    /// Reports names that are empty, too long or hold control characters; `true` when fine.
    @discardableResult
    func checkName(_ name: String, at node: Node) -> Bool {
        let problem: String?
        if name.allSatisfy(\.isWhitespace) {
            problem = "must not be empty"
        } else if name.count > Self.maximumNameLength {
            problem = "must be at most \(Self.maximumNameLength) characters (this one has \(name.count))"
        } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problem = "must not contain control characters (tabs, newlines, ...)"
        } else {
            problem = nil
        }
        guard let problem else { return true }
        let shown = name == node.scalarText ? node.displayValue : "\(node.displayValue) → \(name)"
        sink.report(sink.location(of: node), field: "name", value: shown, problem)
        return false
    }
}
