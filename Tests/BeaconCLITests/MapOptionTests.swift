// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// `--map FILE`: the format by the extension, a PNG only with rsvg-convert (else a clear error
/// before the run), and nothing written where the user did not name.
@Suite struct MapOptionTests {
    static let room = PackageRoot.path("profiles/room-2m.yaml")

    @Test("locate --simulate --map: an SVG xmllint accepts, with the room's walls and each beacon")
    func svg() throws {
        let folder = try BeaconExecutable.temporaryFile(named: "x", contents: "")
        let map = (folder as NSString).deletingLastPathComponent + "/room.svg"
        let result = try BeaconExecutable.run(["locate", Self.room, "--simulate", "still", "--map", map])
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: map, encoding: .utf8)
        #expect(text.contains("<g id=\"walls\"") && text.contains(">room-east</text>") && text.contains("class=\"estimate\""))
        if let xmllint = Executables.onPath("xmllint") {
            #expect(try Program.run(xmllint, ["--noout", map]).status == 0)
        }
    }

    @Test("refused before the run: an unknown extension, a benchmark, a PNG without rsvg-convert (naming the package), a missing folder")
    func refused() throws {
        let bad = try BeaconExecutable.run(["locate", Self.room, "--simulate", "still", "--map", "room.jpg"])
        #expect(bad.status == 2 && bad.stderr.contains("must end in .svg, .html or .png"), "\(bad)")
        let bench = try BeaconExecutable.run(["locate", Self.room, "--simulate", "still", "--air", "office", "--map", "room.svg"])
        #expect(bench.status == 2 && bench.stderr.contains("or the errors of --simulate random"), "\(bench)")
        let twice = try BeaconExecutable.run(["locate", Self.room, "--simulate", "still", "--method", "ls", "--method", "wls"])
        #expect(twice.status == 2 && twice.stderr.contains("--method goes once, except with --simulate random"), "\(twice)")
        let beacon = try BeaconExecutable.location.get()
        let noTool = try Program.run(URL(fileURLWithPath: "/usr/bin/env"), ["PATH=/nonexistent", beacon.path, "locate", Self.room, "--simulate", "still", "--map", "/tmp/never-written.png"])
        #expect(noTool.status == 2 && noTool.stderr.contains("rsvg-convert") && noTool.stderr.contains("apt-get install librsvg2-bin"), "\(noTool)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.png"))
        let missing = try BeaconExecutable.run(["locate", Self.room, "--simulate", "still", "--map", "/nonexistent/room.svg"])
        #expect(missing.status == 1 && missing.stderr.contains("--map") && missing.stderr.contains("/nonexistent"), "\(missing)")
        #expect(missing.stdout.isEmpty, "refused before any fix is computed\n\(missing)")
    }

    @Test("locate --simulate random --map: the error chart of the three methods; --method twice: a summary each, as separate runs give")
    func benchmarkChart() throws {
        let map = (try BeaconExecutable.temporaryFile(named: "x", contents: "") as NSString).deletingLastPathComponent + "/errors.svg"
        let common = ["locate", Self.room, "--simulate", "random", "--walks", "3", "--air", "office", "--as", "ios", "--json"]
        let both = try BeaconExecutable.run(common + ["--method", "circles", "--method", "wls", "--map", map])
        #expect(both.status == 0, "\(both)")
        let summaries = both.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["summary"] as? [String: Any]
        }
        #expect(summaries.map { $0["method"] as? String } == ["circles", "wls"], "\(both)")
        // One method alone: the same walks, the same figures.
        let alone = try BeaconExecutable.run(common + ["--method", "wls"])
        let single = try #require((try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Any], "\(alone)")
        #expect(NSDictionary(dictionary: single).isEqual(to: try #require(summaries.last)), "\(single) vs \(summaries)")
        let svg = try String(contentsOfFile: map, encoding: .utf8)
        if let xmllint = Executables.onPath("xmllint") {
            #expect(try Program.run(xmllint, ["--noout", map]).status == 0)
        }
        // The legend says each summary's median (to the centimetre) and fix count.
        for summary in summaries {
            let method = try #require(summary["method"] as? String), median = try #require(BeaconExecutable.number(summary["median_error"]))
            let legend = try #require(svg.components(separatedBy: ">\(method): median ").dropFirst().first?.components(separatedBy: " m").first, "\(method)")
            #expect(abs(try #require(Double(legend)) - median) <= 0.0055, "\(method): \(legend) vs \(median)")
            #expect(svg.contains("(square), \(summary["fixes"] as? Int ?? -1) fixes<"), "\(method)")
        }
        #expect(svg.contains(">ls: median "), "all three methods are drawn")
    }

    @Test("locate --live --at --map on the virtual air: the estimate next to the true position where --at put the receiver")
    func live() async throws {
        let air = try SharedAirTests.privateAir()
        let advertiser = try SharedAirTests.start(["advertise", Self.room, "-i", "virtual", "--json"], air: air)
        defer { advertiser.send(SIGKILL) }
        // On air before the receiver starts (the wait is a hang bound: it ends when the line comes).
        #expect(await advertiser.waitForOutput(timeout: .seconds(60)) { $0.contains("\"event\":\"on_air\",\"beacon\":\"room-south\"") },
                "\(advertiser.output)")
        let map = (try BeaconExecutable.temporaryFile(named: "x", contents: "") as NSString).deletingLastPathComponent + "/live.svg"
        let locate = try SharedAirTests.start(["locate", Self.room, "--live", "-i", "virtual", "--at", "0.5,0.2", "--duration", "3s", "--map", map], air: air)
        #expect(await locate.waitForExit(timeout: .seconds(60)) == 0, "\(locate.output)")
        let text = try String(contentsOfFile: map, encoding: .utf8)
        #expect(text.contains(">true position</text>") && text.contains("class=\"estimate\"") && text.contains("class=\"ranging\""), "\(text.prefix(400))")
        advertiser.send(SIGINT)
        #expect(await advertiser.waitForExit(timeout: .seconds(30)) == 0, "\(advertiser.output)")
    }

    @Test("site --plan --map: each radio, each beacon labelled with the radio that carries it, the unplaced one in error; xmllint accepts it")
    func sitePlan() throws {
        let map = (try BeaconExecutable.temporaryFile(named: "x", contents: "") as NSString).deletingLastPathComponent + "/site.svg"
        let result = try BeaconExecutable.run(["site", PackageRoot.path("examples/site-lab.yaml"), "--plan", "--map", map])
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: map, encoding: .utf8)
        for radio in ["pi-west/hci0", "pi-west/hci1", "pi-east/hci0"] {
            let id = "m-radio-" + radio.replacingOccurrences(of: "/", with: "-")
            #expect(text.contains("<g class=\"radio\" id=\"\(id)\""), "\(radio)")
        }
        // The plan's own figures: pi-west/hci1 carries 4 of 4; 12 beacons placed (a line each to its radio), far-store not.
        #expect(text.contains(">pi-west/hci1 (4/4)</text>"))
        #expect(text.components(separatedBy: "class=\"carrier\"").count - 1 == 12)
        #expect(text.contains("<g class=\"failed\" id=\"m-far-store\"") && text.contains(">far-store · not placed</text>"))
        #expect(text.contains(">room-east · pi-west/hci0</text>"), "the room's beacons on the radio at (0, 0)")
        if let xmllint = Executables.onPath("xmllint") {
            #expect(try Program.run(xmllint, ["--noout", map]).status == 0)
        }
        let running = try BeaconExecutable.run(["site", PackageRoot.path("examples/site-lab.yaml"), "--map", map])
        #expect(running.status == 2 && running.stderr.contains("--map draws the placement: it goes with --plan"), "\(running)")
    }

    @Test("locate --trace --map: a trace's true_position line puts the true position and the error on the map; a broken one names its line")
    func traceTruth() throws {
        let folder = (try BeaconExecutable.temporaryFile(named: "x", contents: "") as NSString).deletingLastPathComponent
        let trace = PackageRoot.path("docs/traces/near-room-east.jsonl")
        let result = try BeaconExecutable.run(["locate", Self.room, "--trace", trace, "--map", folder + "/trace.svg"])
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: folder + "/trace.svg", encoding: .utf8)
        #expect(text.contains(">true position</text>") && text.contains("class=\"miss\""), "\(text.prefix(400))")
        #expect(text.contains("<g class=\"truth\" data-x=\"0.9\" data-y=\"0.1\">"), "where the trace's first line says")
        let broken = try BeaconExecutable.temporaryFile(named: "broken.jsonl", contents: try String(contentsOfFile: trace, encoding: .utf8)
            .replacingOccurrences(of: "\"x\":0.9,", with: ""))
        let refused = try BeaconExecutable.run(["locate", Self.room, "--trace", broken, "--map", folder + "/never.svg"])
        #expect(refused.status == 1 && refused.stderr.contains("broken.jsonl:1: a true_position line needs time, x and y"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/never.svg"))
    }
}

