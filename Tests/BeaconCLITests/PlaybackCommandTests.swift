// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `beacon play` and `beacon walk` end to end: broken input refused before anything is opened,
/// the dry run's commands, and short runs on the virtual controller (no timing in any verdict).
@Suite("play and walk")
struct PlaybackCommandTests {
    /// Whether anything connected to `listener` (non-blocking accept).
    static func connected(_ listener: LoopbackListener) -> Bool {
        _ = fcntl(listener.fd, F_SETFL, O_NONBLOCK)
        let fd = listener.accept()
        if fd >= 0 { close(fd) }
        return fd >= 0
    }

    @Test("a broken scenario: every issue with file:line:column, exit 65, nothing connected")
    func brokenScenario() throws {
        let path = try BeaconExecutable.temporaryFile(named: "broken.yaml", contents: """
            fleet:
              defaults: {uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1}
              beacons:
                - {name: door, minor: 1}
            steps:
              - {at: -1, show: door}
              - {at: 5s, hide: dor}
              - {at: 6s, beacon: door, major: 70000}
              - {at: 7s, sho: door}
            loop: maybe

            """)
        let listener = try LoopbackListener()
        let result = try BeaconExecutable.run(["play", path, "-i", "tcp:127.0.0.1:\(listener.port)"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(path):6:10: steps.at: -1: must be a time from 0 to 604800 s: seconds (`35`, `0.5`) or with units (`35s`, `500ms`, `1m30s`)",
            "\(path):7:20: steps.hide: dor: no beacon of the fleet has this name; did you mean `door`? (the fleet has: door)",
            "\(path):8:35: steps.major: 70000: must be an integer from 0 to 65535",
            "\(path):9:14: steps.sho: door: unknown key; did you mean `show`?",
            "\(path):10:7: loop: maybe: must be an integer from 1 to 1000000 (passes; or true to loop until stopped)",
        ], "\(result)")
        #expect(!Self.connected(listener), "nothing was sent: the adapter was never opened")
    }

    @Test("a scenario whose fleet file is broken: the fleet file's issues, in its own lines")
    func brokenFleet() throws {
        let fleet = try BeaconExecutable.temporaryFile(named: "fleet.yaml", contents: "uuid: nope\nmajor: 1\nminor: 2\n")
        let scenario = try BeaconExecutable.temporaryFile(named: "s.yaml", contents: "fleet: \(fleet)\nsteps: [{at: 1, hide: x}]\n")
        let result = try BeaconExecutable.run(["play", scenario, "--dry-run"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("\(fleet):1:7: uuid: nope: must be a UUID"), "\(result)")
        #expect(result.stdout.isEmpty, "no dry run either")
    }

    @Test("a step the controller would refuse: found before anything goes on air, at its line")
    func refusedStep() throws {
        let path = try BeaconExecutable.temporaryFile(named: "fast.yaml", contents: """
            fleet:
              beacons:
                - {name: door, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 7, minor: 1}
            steps:
              - {at: 1s, beacon: door, interval: 30}

            """)
        let result = try BeaconExecutable.run(["play", path, "-i", "virtual:version=4.2"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("\(path):5:5: the fleet as it is at 1 s would be refused by virtual:version=4.2: LE Set Advertising Parameters: advertising interval 0x0030 (30 ms) is too short"), "\(result)")
        #expect(!result.stdout.contains("air "), "nothing went on air\n\(result)")
    }

    @Test("a missing scenario file is a runtime failure (exit 1)")
    func missingFile() throws {
        let result = try BeaconExecutable.run(["play", "no/such/scenario.yaml"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no/such/scenario.yaml:1:1: file: no/such/scenario.yaml: cannot read: no such file"), "\(result)")
    }

    @Test("play --dry-run: the timeline, and each step's commands (the difference only)")
    func dryRun() throws {
        let result = try BeaconExecutable.run(["play", "scenarios/region-exit.yaml", "--dry-run"])
        #expect(result.status == 0, "\(result)")
        let out = result.stdout
        #expect(out.contains("#   10 s  hide entrance  (scenarios/region-exit.yaml:20:5)"), "\(out)")
        #expect(out.contains("#   45 s  show entrance  (scenarios/region-exit.yaml:21:5)"), "\(out)")
        // Hiding the one beacon: its set disabled and removed, nothing else.
        let hide = try #require(out.range(of: "# == hci0: 10 s: hide entrance — fleet on air: nothing\n"), "\(out)")
        let show = try #require(out.range(of: "#\n# == hci0: 45 s: show entrance"), "\(out)")
        let hideCommands = out[hide.upperBound..<show.lowerBound].split(separator: "\n").filter { $0.hasPrefix("hcitool") }
        #expect(hideCommands == ["hcitool -i hci0 cmd 0x08 0x0039 00 01 00 00 00 00", "hcitool -i hci0 cmd 0x08 0x003c 00"])
        // Showing it again: parameters, address, data, enable.
        let teardown = try #require(out.range(of: "# == hci0: teardown"), "\(out)")
        let showNames = out[show.upperBound..<teardown.lowerBound].split(separator: "\n").filter { $0.hasPrefix("# LE") }
        #expect(showNames == ["# LE Set Extended Advertising Parameters (0x08|0x0036)", "# LE Set Advertising Set Random Address (0x08|0x0035)",
                              "# LE Set Extended Advertising Data (0x08|0x0037)", "# LE Set Extended Advertising Enable (0x08|0x0039)"])
    }

    @Test("play --dry-run --json: one object per command, sections named by the step's time")
    func dryRunJSON() throws {
        let result = try BeaconExecutable.run(["play", "scenarios/store-opening.yaml", "--dry-run", "--json"])
        #expect(result.status == 0, "\(result)")
        let sections = try result.stdout.split(separator: "\n").map { try BeaconExecutable.jsonObject(String($0))["section"] as? String ?? "" }
        var seen: [String] = []
        for s in sections where seen.last != s { seen.append(s) }
        #expect(seen == ["start", "t=2 s", "t=7 s", "t=12 s", "t=17 s", "t=22 s", "t=23 s", "t=24 s", "t=25 s", "t=26 s", "t=27 s", "t=30 s",
                         "teardown"], "t=35 s, the next pass's start, sends nothing: everything is already off")
    }

    @Test("a measured power change is one LE Set Extended Advertising Data, in place")
    func dataChange() throws {
        let result = try BeaconExecutable.run(["play", "scenarios/walk-past.yaml", "--dry-run", "--json"])
        #expect(result.status == 0, "\(result)")
        let objects = try result.stdout.split(separator: "\n").map { try BeaconExecutable.jsonObject(String($0)) }
        let step = objects.filter { $0["section"] as? String == "t=8 s" }
        #expect(step.map { $0["command"] as? String } == ["LE Set Extended Advertising Data"], "\(step)")
        // minor 1, measured power −47 (0xD1) at the end of the payload.
        #expect((step.first?["h4"] as? String)?.hasSuffix("0001D1") == true, "\(step)")
    }

    @Test("play on the virtual controller: every step in order, then the end of the scenario and the teardown")
    func playVirtual() throws {
        let path = try BeaconExecutable.temporaryFile(named: "quick.yaml", contents: """
            fleet: \(BeaconExecutable.packageRoot.appendingPathComponent("profiles/room-2m.yaml").path)
            hidden: [room-south]
            steps:
              - {at: 100ms, hide: room-west}
              - {at: 200ms, show: [room-west, room-south]}
              - {at: 300ms, beacon: room-east, measured_power: -40}
            duration: 400ms
            loop: 2

            """)
        let result = try BeaconExecutable.run(["play", path, "-i", "virtual", "--json"])
        #expect(result.status == 0, "\(result)")
        let objects = try result.stdout.split(separator: "\n").map { try BeaconExecutable.jsonObject(String($0)) }
        let steps = objects.filter { $0["event"] as? String == "scenario-step" }
        #expect(steps.map { ($0["scenario_time"] as? NSNumber)?.doubleValue ?? -1 } == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
        #expect(steps.map { ($0["on_air"] as? [String])?.count ?? -1 } == [2, 4, 4, 3, 2, 4, 4], "pass 2 starts from the fleet as declared")
        #expect(steps.map { $0["next"] as? String ?? "-" } == ["show room-west, room-south", "room-east: measured_power -40", "pass 2 starts",
                                                               "hide room-west", "show room-west, room-south", "room-east: measured_power -40", "-"])
        #expect(steps.map { ($0["next_time"] as? NSNumber)?.doubleValue ?? -1 } == [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, -1], "the next pass's start is the step after a pass's last change")
        let notes = objects.filter { $0["event"] as? String == "note" }.compactMap { $0["message"] as? String }
        #expect(notes.contains { $0.hasPrefix("scenario over at 0.8 s") }, "\(notes)")
        #expect(objects.last?["event"] as? String == "stopped", "the teardown is the last word")
    }

    @Test("walk standing at (0.5, 0.5): each beacon's measured power is the one for its distance")
    func walkStanding() throws {
        // advdelay=no: the walk ends at once, and each set's first event must be in the air log by then
        // (on the shared air the 0–10 ms advDelay is on by default and could put it after the stop).
        let result = try BeaconExecutable.run(["walk", "profiles/room-2m.yaml", "--path", "0.5,0.5", "--rssi-at-phone", "-45", "-i", "virtual:advdelay=no", "--air-log", "-"])
        #expect(result.status == 0, "\(result)")
        // 1.58 m to west and south: −45 + 20·log10(1.58) = −41 (0xD7); 0.71 m to north and east: −48 (0xD0).
        for (minor, power) in [("0000", "D7"), ("0001", "D0"), ("0002", "D0"), ("0003", "D7")] {
            #expect(result.stdout.contains("25795A1DC31847F0A49D7A2D1D58C79E0001\(minor)\(power)\n"), "minor \(minor)\n\(result.stdout)")
        }
        #expect(result.stdout.contains("walk over at 0.0 s: 0 updates, 0 late"), "\(result)")
    }

    @Test("walk refuses bad options before opening anything", arguments: [
        (["--path", "0,0 1"], "--path: waypoint 2 '1' is not x,y in metres"),
        (["--path", "0,0", "--speed", "fast"], "--speed must be a speed above 0"),
        (["--path", "0,0", "--rssi-at-phone", "5"], "--rssi-at-phone must be from -127 to -1 dBm"),
        (["--path", "0,0", "--rate", "100"], "--rate must be from 1 to 50"),
    ])
    func walkUsage(arguments: [String], message: String) throws {
        let result = try BeaconExecutable.run(["walk", "profiles/room-2m.yaml"] + arguments + ["-i", "virtual"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test("locate --simulate takes walk --path's waypoints, and refuses a bad one by its place", arguments: ["0,0 1,0", "0,0;1,0"])
    func locateSimulateTakesWalkWaypoints(path: String) throws {
        let walked = try BeaconExecutable.run(["walk", "profiles/room-2m.yaml", "--path", path, "--speed", "100", "-i", "virtual"])
        #expect(walked.status == 0, "\(walked)")
        let located = try BeaconExecutable.run(["locate", "profiles/room-2m.yaml", "--simulate", path, "--json"])
        #expect(located.status == 0, "\(located)")
        #expect(located.stdout.contains("\"summary\""), "\(located)")
        let refused = try BeaconExecutable.run(["locate", "profiles/room-2m.yaml", "--simulate", path + " 1"])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("--simulate: waypoint 3 '1' is not x,y in metres"), "\(refused)")
    }

    @Test("walk needs positions")
    func walkWithoutPositions() throws {
        let fleet = try BeaconExecutable.temporaryFile(named: "nowhere.yaml", contents: "uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E\nmajor: 1\nminor: 2\n")
        let result = try BeaconExecutable.run(["walk", fleet, "--path", "0,0", "-i", "virtual"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("no beacon has a position"), "\(result)")
    }
}
