// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// One way to say things across commands: `--json`, durations, `validate` as `advertise` loads,
/// help that matches behaviour.
@Suite struct ConsistencyTests {
    static let room = PackageRoot.url.appendingPathComponent("profiles/room-2m.yaml").path

    @Test func validateChecksTheFilesTogetherAsAdvertiseDoes() throws {
        let copy = try BeaconExecutable.temporaryFile(named: "copy.yaml", contents: try String(contentsOfFile: Self.room, encoding: .utf8))
        let advertise = try BeaconExecutable.run(["advertise", Self.room, copy, "--plan", "-i", "virtual"])
        let validate = try BeaconExecutable.run(["validate", Self.room, copy])
        #expect(advertise.status == 65 && validate.status == 65, "\(advertise)\n\(validate)")
        #expect(validate.stderr == advertise.stderr, "the same issues, word for word")
        #expect(validate.stderr.contains("\(copy):19:5: identity: 25795A1D-C318-47F0-A49D-7A2D1D58C79E major 1 minor 0: the same uuid, major and minor as `room-west` (\(Self.room):19:5)"), "\(validate)")
        // The first file has no issue of its own.
        #expect(validate.lines == ["\(Self.room): OK (4 beacons)"], "\(validate)")

        let json = try BeaconExecutable.run(["validate", "--json", Self.room, copy])
        #expect(json.status == 65)
        let object = try BeaconExecutable.jsonObject(json.stdout)
        #expect(object["ok"] as? Bool == false)
        #expect((object["issues"] as? [[String: Any]])?.count == 4, "\(json)")
        #expect((object["files"] as? [[String: Any]])?.first?["file"] as? String == Self.room)
        let good = try BeaconExecutable.jsonObject(try BeaconExecutable.run(["validate", "--json", Self.room]).stdout)
        #expect(good["ok"] as? Bool == true && (good["files"] as? [[String: Any]])?.first?["beacons"] as? Int == 4)
        let missing = try BeaconExecutable.run(["validate", "--json", "/nonexistent/x.yaml"])
        #expect(missing.status == 1 && missing.stdout.contains("\"unreadable\":[{\"file\":\"/nonexistent/x.yaml\",\"error\":\"no such file\"}]"), "\(missing)")
    }

    @Test func jsonIsOneFlagEverywhere() throws {
        let encodeJSON = try BeaconExecutable.run(["encode", Self.room, "--json"])
        let formatJSON = try BeaconExecutable.run(["encode", Self.room, "--format", "json"])
        #expect(encodeJSON.status == 0 && encodeJSON.stdout == formatJSON.stdout, "\(encodeJSON)\n\(formatJSON)")
        #expect(try BeaconExecutable.run(["encode", Self.room, "--json", "--format", "hcitool"]).status == 2)
        let stop = try BeaconExecutable.run(["stop", "-i", "virtual", "--json"])
        #expect(stop.status == 0, "\(stop)")
        let object = try BeaconExecutable.jsonObject(stop.stdout)
        #expect(object["adapter"] as? String == "virtual" && object["ok"] as? Bool == true && (object["done"] as? [String])?.count == 2, "\(stop)")
        // Every command that prints data has --json.
        for command in ["encode", "decode", "validate", "list", "advertise", "cycle", "stop", "scan", "locate", "adapters", "doctor"] {
            let help = try BeaconExecutable.run([command, "--help"])
            #expect(help.stdout.contains("--json"), "\(command) --help has no --json")
        }
    }

    @Test(arguments: [("1m30s", true), ("1h2m3.5s", true), ("500ms", true), ("2", true), ("1s500ms", true),
                      ("30s1m", false), ("1m1m", false), ("1x", false), ("-1s", false), ("0s", false), ("1m30", false)])
    func compoundDurations(text: String, valid: Bool) throws {
        let advertise = try BeaconExecutable.run(["advertise", Self.room, "--plan", "-i", "virtual", "--duration", text])
        #expect((advertise.status == 0) == valid, "advertise --duration \(text): \(advertise)")
        let locate = try BeaconExecutable.run(["locate", Self.room, "--simulate", "still", "--window", text, "--json"])
        #expect((locate.status == 0) == valid, "locate --window \(text): \(locate)")
    }

    @Test func helpMatchesBehaviour() throws {
        // scan and locate listen on one controller: their help offers no list and no `all`.
        for command in [["scan"], ["locate"]] {
            let help = try BeaconExecutable.run(command + ["--help"])
            #expect(!help.stdout.contains("or all") && !help.stdout.contains("hci0,hci1"), "\(command): \(help.stdout)")
            let refused = try BeaconExecutable.run(command + (command == ["locate"] ? [Self.room, "--live"] : []) + ["-i", "all"])
            #expect(refused.status == 2 && refused.stderr.contains("one controller only"), "\(refused)")
        }
        // cycle has a default dwell, and says which.
        let cycle = try BeaconExecutable.run(["cycle", "--help"])
        #expect(cycle.stdout.contains("(default: 2s)"), "\(cycle.stdout)")
    }
}
