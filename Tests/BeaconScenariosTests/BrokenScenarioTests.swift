// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Testing

/// Many small broken scenarios, each refused with its issue at its line and column (the fleet
/// on line 1 is valid; every file's own problem is on the lines after it).
@Suite("Broken scenario files")
struct BrokenScenarioTests {
    static let fleet = "fleet: {beacons: [{name: door, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, minor: 1}]}\n"

    @Test(arguments: [
        ("steps: [{at: 1, show: door}]\nduration: -5", ["3:11 duration: -5: must be a time from 0 to 604800 s"]),
        ("steps: [{at: 1week, show: door}]", ["2:14 steps.at: 1week: must be a time"]),
        ("steps: [{at: 700000, show: door}]", ["2:14 steps.at: 700000: must be a time from 0 to 604800 s"]),
        ("steps: [{at: 1, show: [door, [x]]}]", ["2:30 steps.show: [1 item]: must be a beacon's name or a list of names, not a list"]),
        ("steps: [{at: 1, beacon: door, minor: 1.5}]", ["2:38 steps.minor: 1.5: must be an integer from 0 to 65535; fractions are not allowed"]),
        ("steps: [{at: 1, beacon: door, measured_power: \"-59\"}]", ["2:47 steps.measured_power: \"-59\": must be an integer from -128 to 127 (dBm at 1 m), not a quoted string"]),
        ("steps: [{at: 1, beacon: door, tx_power: 21}]", ["2:41 steps.tx_power: 21: must be an integer from -127 to 20 (dBm; or default)"]),
        ("steps: [{at: 1, beacon: door, interval: 10241}]", ["2:41 steps.interval: 10241: must be a number of milliseconds from 20 to 10240"]),
        ("steps: [{at: 1, repeat: 0, every: 1s, steps: [{at: 0, hide: door}]}]", ["2:25 steps.repeat: 0: must be an integer from 1 to 100000 (times)"]),
        ("steps: [{at: 1, repeat: 100001, every: 1s, steps: [{at: 0, hide: door}]}]", ["2:25 steps.repeat: 100001: must be an integer from 1 to 100000"]),
        ("steps: [{at: 1, repeat: 2, every: 0, steps: [{at: 0, hide: door}]}]", ["2:35 steps.every: 0: must be more than 0 s"]),
        ("steps: [{at: 1, steps: []}]", ["2:24 steps.steps: [0 items]: must be a list of at least one step; it is empty"]),
        ("steps: [{at: 1, hide: door}]\nhidden: {a: 1}", ["3:9 hidden: {a}: must be a beacon's name or a list of names, not a mapping"]),
        ("steps: {at: 1}", ["2:8 steps: {at}: must be a list of at least one step; not a mapping"]),
        ("steps: [{at: 1, show: ~}]", ["2:23 steps.show: (no value): must be a beacon's name or a list of names, not nothing"]),
        ("name: \"\"\nsteps: [{at: 1, hide: door}]", ["2:7 name: \"\": must not be empty"]),
        ("steps: [{at: 1, hide: door}]\n  bad indent: x", ["3:3 yaml: bad indent: x: YAML syntax error"]),
        ("steps: [{at: 1, hide: door}, {at: 2, beacon: [door, door], major: 1}]\nloop: 0", [
            "3:7 loop: 0: must be an integer from 1 to 1000000"]),
        ("steps:\n  - {at: 1, hide: door, repeat: 2}\n  - {at: 2, beacon: door}\n  - {at: 3, show: door, sho: door}", [
            "3:25 steps.repeat: 2: `repeat` goes with `steps:`",
            "4:13 steps.beacon: door: names beacons to change, but the step changes nothing",
            "5:25 steps.sho: door: unknown key; did you mean `show`?"]),
    ])
    func refused(text: String, expected: [String]) {
        let issues: [ProfileIssue]
        do {
            _ = try ScenarioLoader.parse(Self.fleet + text + "\n", file: "c.yaml")
            issues = []
        } catch { issues = error.issues }
        let found = issues.map { "\($0.location.line):\($0.location.column) \($0.field): \($0.value): \($0.message)" }
        #expect(found.count == expected.count, "\(found)")
        for (f, e) in zip(found, expected) { #expect(f.hasPrefix(e), "\(f)\nexpected \(e)…") }
    }

    @Test("times may be quoted; a scenario may loop every pass of its last step's time")
    func accepted() throws {
        let quoted = try ScenarioLoader.parse(Self.fleet + "steps: [{at: \"1s\", show: door}]\n", file: "c.yaml")
        #expect(ScenarioTimeline(quoted).pass.map(\.time) == [1])
        let looping = try ScenarioLoader.parse(Self.fleet + "steps: [{at: 1, hide: door}]\nloop: true\n", file: "c.yaml")
        #expect(looping.passes == nil && looping.duration == 1)
    }
}
