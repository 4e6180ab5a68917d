// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Yams
import BeaconRadio

/// What a whole file declares, before duplicates are checked.
struct DocumentContents {
    var fleetName: String?
    var declarations: [BeaconDeclaration]
    /// Whether every entry yielded its beacons (whatever other issues it has), so the names of
    /// ``declarations`` are all the fleet's: a scenario checks the names its steps use against them.
    var namesComplete = false
    /// The fleet's `air:`, if it has a valid one.
    var air: AirChannel? = nil
    /// The fleet's `areas:`, if every one is valid.
    var areas: [Area] = []
    /// The fleet's `receiver_height:` (0 when absent or invalid).
    var receiverHeight: Double = 0
}

extension ProfileReader {
    /// Reads the file's root node: a single beacon (beacon keys at the top level) or a fleet
    /// (`name`, `defaults`, `beacons`). The presence of `beacons:` or `defaults:` makes it a fleet.
    func readDocument(_ root: Node?, fileStem: String) -> DocumentContents {
        let empty = DocumentContents(fleetName: nil, declarations: [])
        guard let root, !root.isNull else {
            sink.report(
                SourceLocation(file: sink.file, line: 1, column: 1), field: "file", value: "(empty)",
                "declares no beacon; expected beacon keys (uuid, major, minor, ...) or a fleet with `beacons:`")
            return empty
        }
        guard let top = root.mapping else {
            sink.report(root, field: "document",
                        "must be a mapping: beacon keys, or a fleet's `name`, `defaults` and `beacons`; not \(root.shapeName)")
            return empty
        }
        // Not one key a profile has: this is most likely not a profile at all (a mistyped path,
        // or another user's file named in a site file run with sudo, such as /etc/shadow, whose
        // lines YAML reads as keys). Nothing of it is quoted: its lines may be secrets.
        let known = Set(ProfileKeys.beacon + ProfileKeys.fleet)
        guard top.keys.isEmpty || top.keys.contains(where: { $0.scalarText.map(known.contains) ?? false }) else {
            sink.report(SourceLocation(file: sink.file, line: 1, column: 1), field: "document", value: "(not shown)",
                        "has none of a profile's keys (uuid, major, minor, ... or a fleet's `beacons:`): it is probably not a profile; its text is not quoted")
            return empty
        }
        let isFleet = top.keys.contains { $0.scalarText == "beacons" || $0.scalarText == "defaults" }
        if isFleet { return readFleet(top, at: root, fileStem: fileStem) }

        let entry = fields(of: top, at: root, allowed: ProfileKeys.beacon)
        let declarations = readEntry(entry, at: root, namePrefix: fileStem)
        return DocumentContents(fleetName: nil, declarations: declarations, namesComplete: !declarations.isEmpty)
    }

    private func readFleet(_ top: Node.Mapping, at root: Node, fileStem: String) -> DocumentContents {
        // Beacon keys at the top of a fleet are a common slip: say where they go.
        var hints: [String: String] = [:]
        for key in ProfileKeys.beacon where !ProfileKeys.fleet.contains(key) {
            hints[key] = "in a fleet, beacon keys go under `defaults:` or in each entry of `beacons:`"
        }
        let keys = fields(of: top, at: root, allowed: ProfileKeys.fleet, hints: hints)

        var fleetName: String? = nil
        if let field = keys["name"], let text = scalar(field, path: "name", allowed: "must be the fleet's name (text)") {
            fleetName = text
            checkName(text, at: field.value)
        }

        let air = keys["air"].flatMap(airChannel)
        let areas = keys["areas"].map(readAreas) ?? []
        let receiverHeight = keys["receiver_height"].flatMap {
            number($0, path: "receiver_height", range: Point.coordinateRange, unit: "metres above the positions' z = 0")
        } ?? 0

        var defaults: [String: Field] = [:]
        if let field = keys["defaults"] {
            if field.value.isNull {
                sink.report(field.value, field: "defaults", "has no value; it must be a mapping of beacon keys")
            } else if let mapping = mapping(field, path: "defaults", expected: "a mapping of beacon keys") {
                defaults = fields(of: mapping, at: field.value, allowed: ProfileKeys.beacon, path: "",
                                  hints: ["beacons": "`beacons:` belongs at the top level, not under `defaults:`"])
                // Checked on their own, at their own line: a bad default is an error even when
                // every beacon overrides it. Beacons that inherit it find the same issue, which
                // the sink keeps once.
                _ = readValues(defaults)
            }
        }

        guard let list = keys["beacons"] else {
            missing("beacons", in: root, "a fleet lists its beacons under `beacons:`")
            return DocumentContents(fleetName: fleetName, declarations: [])
        }
        guard let sequence = list.value.sequence, !sequence.isEmpty else {
            let found = list.value.isNull ? "it has no value" : list.value.sequence != nil ? "it is empty" : "not \(list.value.shapeName)"
            sink.report(list.value, field: "beacons", "must be a list of at least one beacon; \(found)")
            return DocumentContents(fleetName: fleetName, declarations: [])
        }

        var declarations: [BeaconDeclaration] = []
        var complete = true
        for item in sequence {
            guard let mapping = item.mapping else {
                sink.report(item, field: "beacons", "each entry must be a mapping of beacon keys, not \(item.shapeName)")
                complete = false
                continue
            }
            let own = fields(of: mapping, at: item, allowed: ProfileKeys.beacon)
            // An entry's own keys win over `defaults:`; inherited values keep their own position,
            // so a bad default is reported where it is written.
            let merged = defaults.merging(own) { _, entry in entry }
            let entry = readEntry(merged, at: item, namePrefix: fleetName ?? fileStem, ownKeys: Set(own.keys))
            if entry.isEmpty { complete = false }
            // Checked as entries expand, so a file of many full ranges stops at the limit rather
            // than after building millions of beacons; the entries after it are not read.
            if declarations.count + entry.count > ProfileLoader.maximumFleetSize {
                sink.report(sink.location(of: item), field: "beacons", value: "\(declarations.count + entry.count) beacons",
                            "a file may declare at most \(ProfileLoader.maximumFleetSize) beacons, and this entry goes past that; split the fleet into several files")
                complete = false
                break
            }
            declarations += entry
        }
        return DocumentContents(fleetName: fleetName, declarations: declarations, namesComplete: complete, air: air, areas: areas,
                                receiverHeight: receiverHeight)
    }
}
