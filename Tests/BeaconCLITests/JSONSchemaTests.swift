// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// The real JSON output of every command that prints JSON, checked against its schema in
/// docs/schema/ by Tests/Harness/validate_json.py (Python's jsonschema, from
/// Tests/Harness/requirements.txt). Each command runs offline or on `-i virtual` with a private
/// air directory; every event kind the schemas describe for these runs must appear, so a run
/// that printed less cannot pass by checking nothing.
@Suite(.serialized) struct JSONSchemaTests {
    static let room = "profiles/room-2m.yaml"

    /// A fresh directory for this run's output files and its virtual air (mode 0700).
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-json-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    /// `beacon arguments…` with `BEACON_AIR=air`, to completion; its standard output, which must
    /// be a success.
    static func output(_ arguments: [String], air: URL, stdin: String? = nil) throws -> String {
        let result = try Program.run(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air.path)", try Executables.beacon.get().path] + arguments, stdin: stdin)
        #expect(result.status == 0, "beacon \(arguments.joined(separator: " ")): \(result)")
        return result.stdout
    }

    static func events(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["event"] as? String
        })
    }

    @Test func everyCommandsJSONOutputMatchesItsSchema() async throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let air = dir.appendingPathComponent("air")
        try FileManager.default.createDirectory(at: air, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var checks: [(schema: String, file: String, text: String)] = []
        func check(_ schema: String, _ name: String, _ text: String) { checks.append((schema, name, text)) }

        // scan --json hears advertise --json on the shared virtual air (as an Android phone: an iPhone
        // ranges iBeacons only, and every format must show); the capture of the
        // advertiser's own commands feeds decode --capture.
        let capture = dir.appendingPathComponent("advertise.btsnoop").path
        let advertiser = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air.path)", try Executables.beacon.get().path,
            "advertise", "profiles/example.yaml", "-i", "virtual", "--json", "--btsnoop", capture])
        let scanner = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air.path)", try Executables.beacon.get().path,
            "scan", "-i", "virtual", "--json", "--at", "1,1", "--as", "android"])
        defer {
            scanner.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        // Until a ranging update lists every format (the wait is a hang bound, not a verdict).
        let ranged = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            ["\"format\":\"ibeacon\"", "\"format\":\"altbeacon\"", "\"format\":\"eddystone-uid\"", "\"format\":\"eddystone-url\""].allSatisfy { format in
                out.split(separator: "\n").contains { $0.contains("\"event\":\"ranging\"") && $0.contains(format) }
            }
        }
        #expect(ranged, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        scanner.send(SIGINT)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        advertiser.send(SIGINT)
        #expect(await advertiser.waitForExit(timeout: .seconds(30)) == 0, "\(advertiser.output)")
        let scan = scanner.stdout
        #expect(Self.events(scan).isSuperset(of: ["scanning", "report", "enter", "ranging", "stopped"]), "\(scan)")
        check("scan.schema.json", "scan.jsonl", scan)
        check("run-event.schema.json", "advertise.jsonl", advertiser.stdout)
        check("decode.schema.json", "decode-capture.jsonl", try Self.output(["decode", "--capture", capture, "--json"], air: air))

        // locate reads the scan back (--trace) and simulates.
        let trace = dir.appendingPathComponent("scan.jsonl")
        try Data(scan.utf8).write(to: trace)
        let located = try Self.output(["locate", "profiles/example.yaml", "--trace", trace.path, "--json"], air: air)
        #expect(!located.isEmpty, "locate --trace made no fix from the scan")
        check("locate.schema.json", "locate-trace.jsonl", located)
        check("locate.schema.json", "locate-simulate.jsonl", try Self.output(["locate", Self.room, "--simulate", "square", "--seed", "1", "--json"], air: air))
        check("locate.schema.json", "locate-walks.jsonl",
              try Self.output(["locate", Self.room, "--simulate", "random", "--walks", "2", "--air", "office", "--as", "ios", "--seed", "1", "--json"], air: air))

        // Offline: every beacon format through list, encode and decode (the golden vectors).
        let profiles = ["profiles/room-2m.yaml", "profiles/example.yaml", "profiles/bm1.yaml", "profiles/station-160.yaml"]
        check("list.schema.json", "list.jsonl", try Self.output(["list", "--json"] + profiles, air: air))
        var encoded = ""
        for profile in profiles { encoded += try Self.output(["encode", profile, "--json"], air: air) }
        for flags in [["--url", "https://example.com/a"], ["--tlm", "--battery", "3000", "--temperature", "21.5"],
                      ["--altbeacon", "E3F95E13-0F52-4BF9-B469-1A4077C6DFEF-000A0003"], ["--namespace", "8B0CA750E7A74E14BD99", "--instance", "000000000001"],
                      ["--uuid", "25795A1D-C318-47F0-A49D-7A2D1D58C79E", "--major", "1", "--minor", "2", "--flags", "none"]] {
            encoded += try Self.output(["encode"] + flags + ["--json"], air: air)
        }
        check("encode.schema.json", "encode.jsonl", encoded)
        let vectors = try FileManager.default.contentsOfDirectory(atPath: PackageRoot.url.appendingPathComponent("Tests/BeaconCodecTests/Vectors").path)
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        var hexes: [String] = []
        for name in vectors {
            let text = try String(contentsOf: PackageRoot.url.appendingPathComponent("Tests/BeaconCodecTests/Vectors/\(name)"), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let hex = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["hex"] as? String { hexes.append(hex) }
            }
        }
        #expect(hexes.count >= 5, "\(vectors)")
        // Valid vectors, then text that is not hex and data without a beacon: their error lines.
        let decoded = Result { try Program.run(try Executables.beacon.get(), ["decode", "--json"], stdin: (hexes + ["0201zz", "020106"]).joined(separator: "\n") + "\n") }
        let decodedOutput = try decoded.get()
        #expect(decodedOutput.stdout.contains("\"error\":\"invalid-hex\"") && decodedOutput.stdout.contains("\"error\":\"no-ibeacon\""), "\(decodedOutput)")
        check("decode.schema.json", "decode.jsonl", decodedOutput.stdout)

        // The runs' events: cycle (rotation turns, and the air log on standard output), play on
        // the virtual controller and dry, walk, the plan and the dry runs.
        let cycle = try Self.output(["cycle", Self.room, "-i", "virtual", "--dwell", "200ms", "--once", "--json", "--air-log", "-"], air: air)
        check("run-event.schema.json", "cycle.jsonl", cycle)
        let play = try Self.output(["play", "scenarios/region-exit.yaml", "-i", "virtual", "--json", "--speed", "20"], air: air)
        check("run-event.schema.json", "play.jsonl", play)
        let walk = try Self.output(["walk", Self.room, "-i", "virtual", "--path", "square", "--duration", "1s", "--json"], air: air)
        check("run-event.schema.json", "walk.jsonl", walk)
        // A rotation: its measured coverage at the end.
        let rotation = try Self.output(["advertise", "profiles/station-160.yaml", "-i", "virtual:sets=4", "--duration", "2.5", "--json"], air: air)
        check("run-event.schema.json", "rotation.jsonl", rotation)
        let runEvents = Self.events(advertiser.stdout + cycle + play + walk + rotation)
        #expect(runEvents.isSuperset(of: ["plan", "on_air", "off_air", "applied", "slot", "turn_timing", "stopped", "note", "coverage",
                                          "scenario-start", "scenario-step", "walker", "air"]), "\(runEvents.sorted())")
        check("plan.schema.json", "plan.json", try Self.output(["advertise", Self.room, "-i", "virtual", "--plan", "--json"], air: air))
        check("dry-run.schema.json", "advertise-dry-run.jsonl", try Self.output(["advertise", Self.room, "--dry-run", "--json"], air: air))
        check("dry-run.schema.json", "play-dry-run.jsonl", try Self.output(["play", "scenarios/region-exit.yaml", "--dry-run", "--json"], air: air))

        var arguments = [PackageRoot.url.appendingPathComponent("Tests/Harness/validate_json.py").path, PackageRoot.url.appendingPathComponent("docs/schema").path]
        for c in checks {
            let url = dir.appendingPathComponent(c.file)
            try Data(c.text.utf8).write(to: url)
            arguments += [c.schema, url.path]
        }
        let python = try Executables.require("python3", install: "scripts/setup --tests, then put /root/.cache/beacon/venv/bin first on PATH")
        let verdict = try Program.run(python, arguments)
        #expect(verdict.status == 0, "\(verdict)")
    }

    /// The validator is not a rubber stamp: a report with a field of the wrong type, or one
    /// missing, fails.
    @Test func validatorRefusesAReportThatBreaksTheSchema() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = #"{"time":0.081,"event":"report","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"power":-59,"rssi":-50,"address":"CB:81:10:5A:63:1F","address_type":1,"extended":true}"#
        let python = try Executables.require("python3", install: "scripts/setup --tests, then put /root/.cache/beacon/venv/bin first on PATH")
        for (name, line, valid) in [("good", good, true), ("type", good.replacingOccurrences(of: #""extended":true"#, with: #""extended":1"#), false),
                                    ("missing", good.replacingOccurrences(of: #""rssi":-50,"#, with: ""), false),
                                    ("extra", good.replacingOccurrences(of: "}", with: #","surprise":0}"#), false)] {
            let url = dir.appendingPathComponent("\(name).jsonl")
            try Data((line + "\n").utf8).write(to: url)
            let verdict = try Program.run(python, [PackageRoot.url.appendingPathComponent("Tests/Harness/validate_json.py").path,
                                                   PackageRoot.url.appendingPathComponent("docs/schema").path, "scan.schema.json", url.path])
            #expect((verdict.status == 0) == valid, "\(name): \(verdict)")
        }
    }
}
