// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconRadio
import BeaconMQTT
import BeaconProfiles
import Yams

/// Reads one site file's document, reporting every problem to the profile reader's sink and
/// carrying on, so one run shows them all. The site's own keys are read here; its `beacons:` and
/// `defaults:` by the profile reader, as a fleet file's are; its `profiles:` by `ProfileLoader`.
struct SiteReader {
    let reader: ProfileReader
    /// Issues of the profile files the site names (they carry their own file names).
    private var profileIssues: [ProfileIssue] = []

    init(file: String) {
        reader = ProfileReader(file: file)
    }

    var file: String { reader.sink.file }
    var issues: [ProfileIssue] { reader.sink.issues + profileIssues }

    mutating func read(_ text: String) -> Site? {
        let root: Node?
        do throws(DocumentRefused) { root = try reader.sink.compose(text) } catch { return nil }
        guard let root, !root.isNull else {
            reader.sink.report(SourceLocation(file: file, line: 1, column: 1), field: "file", value: "(empty)",
                               "declares no site; expected `name`, `radios` and `beacons` or `profiles`")
            return nil
        }
        guard let top = root.mapping else {
            reader.sink.report(root, field: "document", "must be a mapping with the site's `name`, `radios` and beacons")
            return nil
        }
        let keys = reader.fields(of: top, at: root, allowed: SiteKeys.top)

        var name: String?
        if let field = keys["name"] {
            name = reader.scalar(field, path: "name", allowed: "must be the site's name (lowercase letters, digits, - and _)")
            if let text = name, let problem = SiteNames.problem(withName: text) {
                reader.sink.report(field.value, field: "name", problem)
                name = nil
            }
        } else {
            reader.missing("name", in: root, "a site is named: it is the second level of its topics (beacon/NAME/…)")
        }
        let broker = keys["broker"].flatMap(readBroker)
        let radios = readRadios(keys["radios"], in: root)
        var maximumDistance = Site.defaultMaximumDistance
        if let field = keys["max_distance"] {
            maximumDistance = reader.number(field, path: "max_distance", range: 0.1...1000, unit: "metres") ?? maximumDistance
        }
        var failover = FailoverPolicy.nearest
        if let field = keys["failover"] {
            let allowed = "must be one of: " + FailoverPolicy.allCases.map(\.rawValue).joined(separator: ", ")
            if let text = reader.scalar(field, path: "failover", allowed: allowed) {
                if let policy = FailoverPolicy(rawValue: text) { failover = policy } else { reader.sink.report(field.value, field: "failover", allowed) }
            }
        }
        var prefix = Site.defaultDiscoveryPrefix
        if let field = keys["discovery_prefix"],
           let text = reader.scalar(field, path: "discovery_prefix", allowed: "must be Home Assistant's discovery prefix (one topic level)") {
            if let problem = SiteNames.problem(withTopicLevel: text) { reader.sink.report(field.value, field: "discovery_prefix", problem) } else { prefix = text }
        }
        let air = keys["air"].flatMap(reader.airChannel)
        var beacons: [BeaconProfile] = []
        if let field = keys["beacons"] {
            let inline = reader.embeddedFleet(beacons: field.value, defaults: keys["defaults"]?.value, namePrefix: name ?? "site")
            beacons += requirePositions(inline)
        } else if let defaults = keys["defaults"] {
            reader.sink.report(defaults.key, field: "defaults", "applies to the entries of `beacons:`, and there is none")
        }
        let profiles = readProfiles(keys["profiles"], checkingAgainst: beacons)
        beacons += profiles.flatMap(\.beacons)
        if keys["beacons"] == nil, keys["profiles"] == nil {
            reader.missing("beacons", in: root, "a site lists its beacons under `beacons:` (profile entries with a position) or names profile files under `profiles:`")
        }
        if broker == nil, Set(radios.map(\.host)).count > 1 {
            reader.missing("broker", in: root, "the radios are on several hosts, which meet at a broker: `broker: {url: mqtt://HOST}`")
        }
        guard let name else { return nil }
        return Site(name: name, file: file, broker: broker, radios: radios, beacons: beacons, maximumDistance: maximumDistance,
                    failover: failover, discoveryPrefix: prefix, air: air, areas: profiles.flatMap(\.areas))
    }

    private func readBroker(_ field: Field) -> SiteBroker? {
        guard let mapping = reader.mapping(field, path: "broker", expected: "a mapping like `{url: mqtts://broker.lan, ca_file: ca.crt}`")
        else { return nil }
        let keys = reader.fields(of: mapping, at: field.value, allowed: SiteKeys.broker, path: "broker")
        func text(_ key: SiteBrokerSettings.Key, allowed: String) -> String? {
            keys[key.rawValue].flatMap { reader.scalar($0, path: "broker.\(key.rawValue)", allowed: allowed) }
        }
        func path(_ key: SiteBrokerSettings.Key) -> String? {
            text(key, allowed: "must be a file's path").map { SiteLoader.resolve($0, from: file) }
        }
        let url = text(.url, allowed: SiteBrokerSettings.allowedURL)
        if keys["url"] != nil, url == nil { return nil }
        let settings = SiteBrokerSettings(url: url, caFile: path(.caFile), certificateFile: path(.certificateFile), keyFile: path(.keyFile),
                                          credentialsFile: path(.credentialsFile))
        let (broker, issues) = settings.read()
        for issue in issues {
            let name = "broker.\(issue.key.rawValue)"
            if let shownAt = issue.shownAt, let given = keys[shownAt.rawValue] {
                // The address is reported at its value, a setting that does not belong at its key.
                reader.sink.report(shownAt == .url ? given.value : given.key, field: name, issue.message)
            } else {
                reader.missing(name, in: field.value, issue.message)
            }
        }
        return broker
    }

    private func readRadios(_ field: Field?, in root: Node) -> [SiteRadio] {
        guard let field else {
            reader.missing("radios", in: root, "a site lists its radios: `- {host: NAME, adapter: hci0, position: {x: 0, y: 0}}`")
            return []
        }
        guard let list = field.value.sequence, !list.isEmpty else {
            reader.sink.report(field.value, field: "radios", "must be a list of at least one radio, not \(field.value.isNull ? "nothing" : field.value.shapeName)")
            return []
        }
        if list.count > Site.maximumRadios {
            // Refused before any is read: the placement's work grows with the radios.
            reader.sink.report(field.value, field: "radios", "a site has at most \(Site.maximumRadios) radios (this one lists \(list.count)); split it into several sites")
            return []
        }
        var radios: [SiteRadio] = []
        var seen: [SiteRadio.ID: Node] = [:]
        for item in list {
            guard let mapping = item.mapping else {
                reader.sink.report(item, field: "radios", "each radio must be a mapping of host, adapter, position and capacity, not \(item.shapeName)")
                continue
            }
            let keys = reader.fields(of: mapping, at: item, allowed: SiteKeys.radio, path: "radios")
            func name(_ key: String, check: (String) -> String?) -> String? {
                guard let f = keys[key] else {
                    reader.missing("radios.\(key)", in: item, "each radio names its \(key)")
                    return nil
                }
                guard let text = reader.scalar(f, path: "radios.\(key)", allowed: "must be a name") else { return nil }
                if let problem = check(text) {
                    reader.sink.report(f.value, field: "radios.\(key)", problem)
                    return nil
                }
                return text
            }
            let host = name("host", check: SiteNames.problem(withName:))
            let adapter = name("adapter", check: SiteNames.problem(withTopicLevel:))
            var position: Point?
            if let f = keys["position"] {
                if let stepKey = f.value.mapping?.keys.first(where: { $0.scalarText == "step" }) {
                    reader.sink.report(stepKey, field: "radios.position.step", "a radio's position is one point: x, y and an optional z")
                } else {
                    position = reader.positionPlan(f)?.start
                }
            } else {
                reader.missing("radios.position", in: item, "each radio has a position (metres), which beacons are placed by")
            }
            var capacity: Int?
            if let f = keys["capacity"] {
                capacity = reader.integer(f, path: "radios.capacity", range: 1...ProfileLoader.maximumFleetSize, unit: "beacons")
            }
            guard let host, let adapter, let position else { continue }
            let radio = SiteRadio(host: host, adapter: AdapterName(adapter), position: position, capacity: capacity)
            if let earlier = seen[radio.id] {
                let line = reader.sink.location(of: earlier).line
                reader.sink.report(item, field: "radios", "\(radio.id) is listed twice (first at line \(line))")
                continue
            }
            seen[radio.id] = item
            radios.append(radio)
        }
        return radios
    }

    /// Beacons without a position cannot be placed: each is reported where it is declared.
    private func requirePositions(_ beacons: [BeaconProfile]) -> [BeaconProfile] {
        for beacon in beacons where beacon.position == nil {
            reader.sink.report(beacon.location, field: "position", value: "(missing)",
                               "required in a site: each beacon is carried by a radio near its position")
        }
        return beacons
    }

    /// The profile files `field` names (their beacons and areas), checked for clashes (identity,
    /// address) with each other and with the site's own `inline` beacons.
    private mutating func readProfiles(_ field: Field?, checkingAgainst inline: [BeaconProfile]) -> [BeaconFleet] {
        guard let field else { return [] }
        guard let list = field.value.sequence, !list.isEmpty else {
            reader.sink.report(field.value, field: "profiles", "must be a list of profile files (paths relative to the site file)")
            return []
        }
        var paths: [String] = []
        for item in list {
            if let text = reader.scalar(Field(key: field.key, value: item), path: "profiles", allowed: "must be a profile file's path") {
                paths.append(SiteLoader.resolve(text, from: file))
            }
        }
        do throws(ProfileErrors) {
            let fleets = try ProfileLoader.load(paths: paths, extra: inline, accepting: .regularFiles)
            for beacon in fleets.flatMap(\.beacons) where beacon.position == nil {
                profileIssues.append(ProfileIssue(location: beacon.location, field: "position", value: "(missing)",
                                                  message: "required in a site (\(file) names this file): each beacon is carried by a radio near its position"))
            }
            return fleets
        } catch {
            profileIssues += error.issues
            return []
        }
    }
}
