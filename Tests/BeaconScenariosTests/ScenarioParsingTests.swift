// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Foundation
import TestSupport
import Testing

/// Scenario files are checked like profiles: every issue at once, each with file:line:column,
/// the field and what is allowed.
@Suite("Scenario files")
struct ScenarioParsingTests {
    static let fleet = """
        fleet:
          defaults: {uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1}
          beacons:
            - {name: door, minor: 1}
            - {name: till, minor: 2}

        """

    /// The issues of `text` as `line:column field`, in file order.
    static func issues(_ text: String, file: String = "s.yaml") -> [String] {
        do {
            _ = try ScenarioLoader.parse(text, file: file)
            return []
        } catch {
            return error.issues.map { "\($0.location.line):\($0.location.column) \($0.field)" }
        }
    }

    @Test("the shipped scenarios load, with the fleet file they name")
    func shipped() throws {
        for name in ["region-exit", "walk-past", "store-opening"] {
            let s = try ScenarioLoader.load(contentsOf: PackageRoot.path("scenarios/\(name).yaml"))
            #expect(s.name == name)
            #expect(!s.fleet.beacons.isEmpty)
        }
        let store = try ScenarioLoader.load(contentsOf: PackageRoot.path("scenarios/store-opening.yaml"))
        #expect(store.fleet.beacons.map(\.name) == ["room-west", "room-north", "room-east", "room-south"])
        #expect(store.passes == 3 && store.duration == 35)
        let exit = try ScenarioLoader.load(contentsOf: PackageRoot.path("scenarios/region-exit.yaml"))
        let times = ScenarioTimeline(exit).pass.map(\.time)
        #expect(times == [10, 45], "silent from 10 s for 35 s")
    }

    @Test("a file broken in many ways: every issue at once, at its line and column")
    func manyIssues() {
        let text = Self.fleet + """
            hidden: [dor]
            steps:
              - {at: -1, show: door}
              - {at: 5x, hide: till}
              - {at: 3s, beacon: door, major: 70000, measured_power: -200}
              - {at: 4s, beacon: door, tx_power: 40, interval: 5}
              - {at: 5s, major: 2}
              - {at: 6s}
              - {show: door}
              - {at: 7s, show: door, hide: door}
              - {at: 8s, sho: door}
              - at: 9s
                repeat: 3
                steps: [{at: 0, show: door}]
              - at: 10s
                repeat: 2
                every: 1s
                steps: [{at: 0, hide: door}, {at: 2s, show: door}]
              - {at: 11s, repeat: 2, show: door}
              - 42
              - {at: 40s, show: till}
            duration: 1s
            loop: maybe
            extra: 1
            """
        let found = Self.issues(text)
        let expected = [
            "6:10 hidden",                      // unknown beacon `dor`
            "8:10 steps.at",                    // negative time
            "9:10 steps.at",                    // not a time
            "10:35 steps.major", "10:58 steps.measured_power",
            "11:38 steps.tx_power", "11:52 steps.interval",
            "12:5 steps.beacon",                // fields without beacon:
            "13:5 steps",                       // does nothing
            "14:5 steps.at",                    // no time
            "15:32 steps.hide",                 // both shown and hidden
            "16:14 steps.sho",                  // unknown key (did you mean show)
            "17:5 steps.every",                 // repeat without every
            "23:12 steps.every",                // overlapping repeats (at the block's steps)
            "24:15 steps.repeat",               // repeat without steps
            "25:5 steps",                       // not a mapping
            "27:11 duration",                   // shorter than the last step (40 s)
            "28:7 loop",
            "29:1 extra",
        ]
        #expect(found == expected)
        #expect(found.count == Set(found).count, "each issue once: \(found)")
        #expect(found == found.sorted { a, b in
            let (la, lb) = (a.split(separator: ":").map { Int($0.prefix { $0.isNumber })! }, b.split(separator: ":").map { Int($0.prefix { $0.isNumber })! })
            return la[0] != lb[0] ? la[0] < lb[0] : la[1] <= lb[1]
        }, "in file order")
    }

    @Test("messages name the file, the field, the value and what is allowed")
    func messages() throws {
        do {
            _ = try ScenarioLoader.parse(Self.fleet + "steps:\n  - {at: 2s, hide: dor}\n", file: "x/s.yaml")
            Issue.record("accepted an unknown beacon")
        } catch {
            let text = error.description
            #expect(text.contains("x/s.yaml:7:20: steps.hide: dor: no beacon of the fleet has this name; did you mean `door`?"), "\(text)")
        }
        do {
            _ = try ScenarioLoader.parse(Self.fleet + "steps:\n  - {at: 2s, beacon: door, major: 70000}\n", file: "s.yaml")
            Issue.record("accepted major 70000")
        } catch {
            #expect(error.description.contains("steps.major: 70000: must be an integer from 0 to 65535"), "\(error)")
        }
    }

    @Test("fleet: a missing file is reported at fleet:, a broken one with its own lines")
    func fleetFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-tests-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.yaml")
        try "uuid: nope\nmajor: 1\nminor: 70000\n".write(to: broken, atomically: true, encoding: .utf8)
        let scenarioFile = directory.appendingPathComponent("s.yaml").path
        let missing = Self.issues("fleet: nothing.yaml\nsteps: [{at: 1, hide: x}]\n", file: scenarioFile)
        #expect(missing == ["1:8 fleet"], "\(missing)")
        let issues: [ProfileIssue]
        do {
            _ = try ScenarioLoader.parse("fleet: broken.yaml\nsteps: [{at: 1, hide: x}]\n", file: scenarioFile)
            issues = []
        } catch { issues = error.issues }
        #expect(issues.map(\.location.file) == [broken.path, broken.path], "the fleet file's own issues: \(issues)")
        #expect(issues.map(\.field) == ["uuid", "minor"])
    }

    @Test("YAML syntax errors, empty files and wrong shapes")
    func shapes() {
        #expect(Self.issues("steps: [\n") == ["2:1 yaml"])
        #expect(Self.issues("") == ["1:1 file"])
        #expect(Self.issues("- a\n") == ["1:1 document"])
        #expect(Self.issues("name: x\n") == ["1:1 fleet", "1:1 steps"])
        #expect(Self.issues(Self.fleet + "steps: []\n") == ["6:8 steps"])
    }

    @Test("an embedded fleet is checked as a profile is, in the scenario's lines")
    func embeddedFleet() {
        let text = "fleet:\n  beacons:\n    - {name: a, uuid: x, major: 1, minor: 1}\n    - {name: a, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, minor: 2}\nsteps: [{at: 1, hide: a}]\n"
        let found = Self.issues(text)
        #expect(found == ["3:23 uuid"], "\(found)")
    }

    @Test("tx_power: default, times with units, loop: true")
    func values() throws {
        let s = try ScenarioLoader.parse(Self.fleet + """
            steps:
              - {at: 500ms, beacon: [door, till], tx_power: -10}
              - {at: 1.5, beacon: door, tx_power: default}
              - {at: 1m, hide: till}
            duration: 2m
            loop: true
            """, file: "s.yaml")
        #expect(s.passes == nil)
        #expect(s.duration == 120)
        let pass = ScenarioTimeline(s).pass
        #expect(pass.map(\.time) == [0.5, 1.5, 60])
        #expect(pass[0].change.beacons == ["door", "till"] && pass[0].change.txPower == .some(-10))
        #expect(pass[1].change.txPower == .some(nil))
    }

    /// A scenario's times are the command line's durations (DurationSyntax): compound values,
    /// units largest first and each once; anything else is refused at its line.
    @Test("times as on the command line: 1m30s, 1h2m3.5s, 35 s")
    func compoundTimes() throws {
        let s = try ScenarioLoader.parse(Self.fleet + """
            steps:
              - {at: 35 s, hide: till}
              - {at: 1m30s, show: till}
            duration: 1h2m3.5s
            """, file: "s.yaml")
        #expect(ScenarioTimeline(s).pass.map(\.time) == [35, 90])
        #expect(s.duration == 3723.5)
        #expect(Self.issues(Self.fleet + "steps:\n  - {at: 30s1m, hide: till}\n") == ["7:10 steps.at"])
        #expect(Self.issues(Self.fleet + "steps:\n  - {at: 1m1m, hide: till}\n") == ["7:10 steps.at"])
    }
}
