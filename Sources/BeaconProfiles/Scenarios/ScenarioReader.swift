// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import Yams

/// Reads one composed scenario document with the profile reader's machinery (its issue sink,
/// key checks with "did you mean", number and range checks), so a scenario file's issues read
/// like a profile's: every one at once, each with file:line:column, field, value and what is allowed.
final class ScenarioReader {
    static let topKeys = ["name", "fleet", "hidden", "steps", "duration", "loop", "areas"]
    static let stepKeys = ["at", "show", "hide", "beacon", "major", "minor", "measured_power", "power_at_0m", "tx_power", "interval",
                           "repeat", "every", "steps"]
    static let changeKeys = ["major", "minor", "measured_power", "power_at_0m", "tx_power", "interval"]

    /// The fields a step may change on `profile`, by its format: what its frame has (an
    /// Eddystone frame has no major, minor or measured power but a power at 0 m; raw or patched
    /// data has only its interval and TX power, since the frame is not re-encoded).
    static func changeKeys(of profile: BeaconProfile) -> (kind: String, keys: [String]) {
        if profile.rawData != nil { return ("raw-data", ["tx_power", "interval"]) }
        let kind = profile.format.rawValue
        return profile.format.hasMajorMinor ? (kind, ["major", "minor", "measured_power", "tx_power", "interval"])
            : (kind, ["power_at_0m", "tx_power", "interval"])
    }
    static let maximumChanges = Scenario.maximumChanges
    static let maximumRepeat = 100_000

    let reader: ProfileReader
    /// Resolves `fleet: FILE` (relative to the scenario file) into its beacons, or its issues;
    /// with the beacons' names whenever they could all be read (see ``ProfileLoader/readFleet(path:)``).
    let loadFleet: (String) -> (fleet: BeaconFleet?, names: [String]?, issues: [ProfileIssue])
    /// The issues of the fleet file itself (in that file's own lines).
    var fleetIssues: [ProfileIssue] = []
    /// Per beacon of the fleet, its format and the fields a step may change (``changeKeys(of:)``).
    private var changeable: [String: (kind: String, keys: [String])] = [:]
    private var names: Set<String>? = nil {
        didSet { sortedNames = names?.sorted() ?? [] }
    }
    private var sortedNames: [String] = []
    /// "Did you mean" per unknown name met; looked for among the first 100 distinct unknown
    /// names only, so a long scenario of unknown names in a large fleet stays linear.
    private var suggestions: [String: String?] = [:]
    private var changeCount = 0
    /// Set once the pass is known to expand past ``maximumChanges``: reported once, and no more
    /// steps are read (the rest could only add to it).
    private var pastMaximumChanges = false

    init(file: String, loadFleet: @escaping (String) -> (fleet: BeaconFleet?, names: [String]?, issues: [ProfileIssue])) {
        reader = ProfileReader(file: file)
        self.loadFleet = loadFleet
    }

    var sink: IssueSink {
        get { reader.sink }
        set { reader.sink = newValue }
    }

    func read(_ root: Node?) -> Scenario? {
        let file = reader.sink.file
        guard let root, !root.isNull else {
            sink.report(SourceLocation(file: file, line: 1, column: 1), field: "file", value: "(empty)",
                        "declares no scenario; expected `fleet:` and `steps:`")
            return nil
        }
        guard let top = root.mapping else {
            sink.report(root, field: "document", "must be a mapping with `fleet:` and `steps:`, not \(root.shapeName)")
            return nil
        }
        let keys = reader.fields(of: top, at: root, allowed: Self.topKeys)
        var name: String?
        if let f = keys["name"], let text = reader.scalar(f, path: "name", allowed: "must be the scenario's name (text)") {
            if reader.checkName(text, at: f.value) { name = text }
        }
        var fleet = readFleet(keys["fleet"], root: root)
        // The scenario's own rooms add to its fleet's (a floor plan for a fleet file without one).
        if let f = keys["areas"] {
            let own = reader.readAreas(f)
            fleet?.areas += own
        }

        var hidden: Set<String> = []
        if let f = keys["hidden"] { hidden = Set(beaconNames(f, path: "hidden")) }

        var steps: [ScenarioStep] = []
        var lastTime = 0.0
        if let f = keys["steps"] {
            (steps, lastTime) = readSteps(f, path: "steps")
        } else {
            reader.missing("steps", in: root, "a list of steps such as `- {at: 35s, show: entrance}`")
        }

        var duration = lastTime
        if let f = keys["duration"], let d = time(f, path: "duration") {
            if d <= 0 {
                sink.report(f.value, field: "duration", "must be more than 0 s")
            } else if d < lastTime {
                sink.report(f.value, field: "duration", "must be at least the last step's time, \(NumberText.string(lastTime, places: 3)) s")
            }
            duration = d
        }
        var passes: Int? = 1
        if let f = keys["loop"] {
            if let text = f.value.scalarText, !f.value.isString, ["true", "false"].contains(text) {
                passes = text == "true" ? nil : 1
            } else {
                passes = reader.integer(f, path: "loop", range: 1...1_000_000, unit: "passes; or true to loop until stopped")
            }
            if passes != 1, duration <= 0, keys["duration"] == nil {
                sink.report(f.value, field: "loop", "a looping scenario needs a `duration:` (or a step after 0 s): a pass of 0 s would loop forever at once")
            }
        }
        guard let fleet, sink.issues.isEmpty, fleetIssues.isEmpty else { return nil }
        return Scenario(file: file, name: name, fleet: fleet, hidden: hidden, steps: steps, duration: duration, passes: passes)
    }

    /// `fleet: FILE` (a profile file, relative to the scenario) or `fleet:` a mapping as a fleet
    /// profile file's top level (`name`, `defaults`, `beacons`).
    private func readFleet(_ field: Field?, root: Node) -> BeaconFleet? {
        guard let field else {
            reader.missing("fleet", in: root, "a profile file (`fleet: ../profiles/room-2m.yaml`) or a fleet mapping with `beacons:`")
            return nil
        }
        if field.value.mapping != nil {
            let contents = reader.readDocument(field.value, fileStem: ProfileLoader.fileStem(reader.sink.file))
            var duplicates = DuplicateCheck(checksNames: true)
            for d in contents.declarations { duplicates.add(d, to: &reader.sink) }
            // The steps are checked against the names even when the fleet has issues of its
            // own (every problem in one run), as long as every entry could be named.
            if contents.namesComplete { names = Set(contents.declarations.map(\.profile.name)) }
            for d in contents.declarations { changeable[d.profile.name] = Self.changeKeys(of: d.profile) }
            return BeaconFleet(file: reader.sink.file, name: contents.fleetName, beacons: contents.declarations.map(\.profile),
                               areas: contents.areas, receiverHeight: contents.receiverHeight)
        }
        guard let path = reader.scalar(field, path: "fleet", allowed: "must be a profile file or a fleet mapping with `beacons:`") else { return nil }
        let loaded = loadFleet(path)
        names = loaded.names.map(Set.init)
        for profile in loaded.fleet?.beacons ?? [] { changeable[profile.name] = Self.changeKeys(of: profile) }
        // An unreadable file is this file's issue (at `fleet:`); a broken one keeps its own lines.
        for issue in loaded.issues {
            if issue.isUnreadableFile {
                sink.report(field.value, field: "fleet", "the profile file \(issue.message) (paths are relative to the scenario file)")
            } else {
                fleetIssues.append(issue)
            }
        }
        return loaded.fleet
    }

    // MARK: Steps

    /// The steps of a list, and the latest time any of them reaches (relative to the list's start).
    private func readSteps(_ field: Field, path: String) -> ([ScenarioStep], Double) {
        guard let list = field.value.sequence, !list.isEmpty else {
            let found = field.value.isNull || field.value.sequence != nil ? "it is empty" : "not \(field.value.shapeName)"
            sink.report(field.value, field: path, "must be a list of at least one step; \(found)")
            return ([], 0)
        }
        var steps: [ScenarioStep] = []
        var last = 0.0
        for item in list {
            if pastMaximumChanges { break }
            guard let mapping = item.mapping else {
                sink.report(item, field: path, "each step must be a mapping such as `{at: 35s, show: entrance}`, not \(item.shapeName)")
                continue
            }
            if let (step, end) = readStep(mapping, at: item, path: path) {
                steps.append(step)
                last = max(last, end)
            }
        }
        return (steps, last)
    }

    private func readStep(_ mapping: Node.Mapping, at node: Node, path: String) -> (ScenarioStep, Double)? {
        let keys = reader.fields(of: mapping, at: node, allowed: Self.stepKeys, path: path)
        let location = sink.location(of: node)
        var ok = true
        var at: Double?
        if let f = keys["at"] {
            at = time(f, path: "\(path).at")
            if at == nil { ok = false }
        } else {
            reader.missing("\(path).at", in: node, "the step's time from the start (`at: 35s`, `at: 500ms`, `at: 2`)")
            ok = false
        }
        if let block = keys["steps"] {
            for key in ["show", "hide", "beacon"] + Self.changeKeys where keys[key] != nil {
                sink.report(sink.location(of: keys[key]!.key), field: "\(path).\(key)", value: keys[key]!.value.displayValue,
                            "a block with `steps:` only repeats them; put `\(key)` in one of its steps")
                ok = false
            }
            var count = 1
            if let f = keys["repeat"] {
                if let n = reader.integer(f, path: "\(path).repeat", range: 1...Self.maximumRepeat, unit: "times") { count = n } else { ok = false }
            }
            var every = 0.0
            if let f = keys["every"] {
                if let e = time(f, path: "\(path).every"), e > 0 { every = e } else {
                    if time(f, path: "\(path).every") != nil { sink.report(f.value, field: "\(path).every", "must be more than 0 s") }
                    ok = false
                }
            } else if count > 1 {
                reader.missing("\(path).every", in: node, "a repeated block says how far apart its repeats start (`every: 10s`)")
                ok = false
            }
            let before = changeCount
            let (inner, innerEnd) = readSteps(block, path: "\(path).steps")
            if count > 1, every > 0, innerEnd > every {
                sink.report(sink.location(of: block.value), field: "\(path).every", value: NumberText.string(every, places: 3) + " s",
                            "each repeat lasts \(NumberText.string(innerEnd, places: 3)) s, longer than `every:`; repeats would overlap")
                ok = false
            }
            // The count never goes past the limit by more than one (reading stops there), so
            // this product stays far from overflowing.
            let total = before + (changeCount - before) * count
            changeCount = min(total, Self.maximumChanges + 1)
            if total > Self.maximumChanges {
                if !pastMaximumChanges {
                    sink.report(location, field: "\(path).repeat", value: "\(total) changes",
                                "a scenario pass may expand to at most \(Self.maximumChanges) changes (repeats multiplied out)")
                }
                pastMaximumChanges = true
                ok = false
            }
            guard ok, let at else { return nil }
            let end = at + Double(count - 1) * every + innerEnd
            if end > ScenarioTime.maximum {
                sink.report(location, field: "\(path).repeat", value: NumberText.string(end, places: 3) + " s", "the scenario may last at most one week (604800 s)")
                return nil
            }
            return (.repeated(at: at, count: count, every: every, steps: inner, location), end)
        }
        for key in ["repeat", "every"] where keys[key] != nil {
            sink.report(sink.location(of: keys[key]!.key), field: "\(path).\(key)", value: keys[key]!.value.displayValue,
                        "`\(key)` goes with `steps:` (a block of steps to repeat)")
            ok = false
        }
        var change = ScenarioChange()
        if let f = keys["show"] { change.show = beaconNames(f, path: "\(path).show") }
        if let f = keys["hide"] { change.hide = beaconNames(f, path: "\(path).hide") }
        if let f = keys["beacon"] { change.beacons = beaconNames(f, path: "\(path).beacon") }
        if let f = keys["major"] { change.major = reader.integer(f, path: "\(path).major", range: 0...65535).map(UInt16.init); ok = ok && change.major != nil }
        if let f = keys["minor"] { change.minor = reader.integer(f, path: "\(path).minor", range: 0...65535).map(UInt16.init); ok = ok && change.minor != nil }
        if let f = keys["measured_power"] {
            change.measuredPower = reader.integer(f, path: "\(path).measured_power", range: Int(Int8.min)...Int(Int8.max), unit: "dBm at 1 m").map(Int8.init)
            ok = ok && change.measuredPower != nil
        }
        if let f = keys["power_at_0m"] {
            change.powerAt0m = reader.integer(f, path: "\(path).power_at_0m", range: EddystoneFormat.txPowerRange, unit: "dBm received at 0 m")
                .map(Int8.init)
            ok = ok && change.powerAt0m != nil
        }
        if let f = keys["tx_power"] {
            if f.value.scalarText == "default", !f.value.isQuoted {
                change.txPower = .some(nil)
            } else if let p = reader.integer(f, path: "\(path).tx_power", range: BeaconProfile.txPowerRange, unit: "dBm; or default") {
                change.txPower = .some(Int8(p))
            } else { ok = false }
        }
        if let f = keys["interval"] {
            change.intervalMilliseconds = reader.number(f, path: "\(path).interval", range: BeaconProfile.intervalRange, unit: "milliseconds")
            ok = ok && change.intervalMilliseconds != nil
        }
        let fieldKeys = Self.changeKeys.filter { keys[$0] != nil }
        if !fieldKeys.isEmpty, keys["beacon"] == nil {
            reader.missing("\(path).beacon", in: node, "`\(fieldKeys[0])` changes the beacons named by `beacon:`")
            ok = false
        }
        if keys["beacon"] != nil, fieldKeys.isEmpty {
            sink.report(sink.location(of: keys["beacon"]!.key), field: "\(path).beacon", value: keys["beacon"]!.value.displayValue,
                        "names beacons to change, but the step changes nothing; add major, minor, measured_power, power_at_0m, tx_power or interval")
            ok = false
        }
        // Each field must be one the named beacons' format has: a minor on an Eddystone frame
        // would be ignored, silently.
        for key in fieldKeys {
            guard let f = keys[key] else { continue }
            for name in change.beacons {
                guard let (kind, allowed) = changeable[name], !allowed.contains(key) else { continue }
                sink.report(sink.location(of: f.key), field: "\(path).\(key)", value: f.value.displayValue,
                            "`\(name)` (format \(kind)) has no \(key); a step changes its " + allowed.joined(separator: ", "))
                ok = false
                break
            }
        }
        // A step whose only action is a misspelt key has been reported at that key already.
        let misspelt = mapping.keys.contains { !Self.stepKeys.contains($0.scalarText ?? "") }
        if keys["show"] == nil, keys["hide"] == nil, keys["beacon"] == nil, fieldKeys.isEmpty, keys["at"] != nil, !misspelt {
            sink.report(location, field: path, value: node.displayValue, "the step does nothing; give show, hide, or beacon with the fields to change, or steps")
            ok = false
        }
        let both = Set(change.show).intersection(change.hide)
        if let name = both.sorted().first, let f = keys["hide"] {
            sink.report(f.value, field: "\(path).hide", "`\(name)` is both shown and hidden in the same step")
            ok = false
        }
        changeCount += 1
        if changeCount > Self.maximumChanges, !pastMaximumChanges {
            sink.report(location, field: path, value: "more than \(Self.maximumChanges) changes",
                        "a scenario pass may expand to at most \(Self.maximumChanges) changes (repeats multiplied out); this step is change \(changeCount)")
            pastMaximumChanges = true
        }
        guard ok, !pastMaximumChanges, let at else { return nil }
        return (.change(at: at, change, location), at)
    }

    // MARK: Values

    /// A time at or after 0 s and within a week.
    private func time(_ field: Field, path: String) -> Double? {
        let allowed = "must be a time from 0 to 604800 s: seconds (`35`, `0.5`) or with units (`35s`, `500ms`, `1m30s`)"
        guard let text = reader.scalar(field, path: path, allowed: allowed) else { return nil }
        guard let seconds = DurationSyntax.seconds(text), seconds >= 0, seconds <= ScenarioTime.maximum else {
            sink.report(field.value, field: path, allowed)
            return nil
        }
        return seconds
    }

    private func closestName(to name: String) -> String? {
        if let known = suggestions[name] { return known }
        let found = suggestions.count < 100 ? KeySuggestion.closest(to: name, among: sortedNames) : nil
        suggestions[name] = .some(found)
        return found
    }

    /// One name or a list of names, each a beacon of the fleet.
    private func beaconNames(_ field: Field, path: String) -> [String] {
        let nodes: [Node]
        if let list = field.value.sequence {
            nodes = Array(list)
            if nodes.isEmpty { sink.report(field.value, field: path, "must name at least one beacon of the fleet") }
        } else {
            nodes = [field.value]
        }
        var result: [String] = []
        for node in nodes {
            guard let name = node.scalarText, !node.isNull else {
                sink.report(node, field: path, "must be a beacon's name or a list of names, not \(node.isNull ? "nothing" : node.shapeName)")
                continue
            }
            if let names, !names.contains(name) {
                let suggestion = closestName(to: name).map { "; did you mean `\($0)`?" } ?? ""
                let known = names.count <= 8 ? " (the fleet has: " + sortedNames.joined(separator: ", ") + ")" : ""
                sink.report(node, field: path, "no beacon of the fleet has this name\(suggestion)\(known)")
                continue
            }
            result.append(name)
        }
        return result
    }
}
