// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// `play --from`, `--duration` and `--speed` (a window on the scenario clock), and the plan shown
/// once per change of plan, never as "0 beacons". No timing in any verdict: what is checked is
/// which steps were played, in which order, and what was printed.
@Suite struct PlaybackWindowTests {
    static func objects(_ result: CLIResult) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { try BeaconExecutable.jsonObject(String($0)) }
    }

    static func time(_ object: [String: Any]) -> Double { BeaconExecutable.number(object["scenario_time"]) ?? -1 }

    @Test func fromDurationAndSpeedPlayOnlyTheWindowOnTheScenarioClock() throws {
        // region-exit: entrance hidden at 10 s, shown at 45 s, a pass of 60 s. 40–50 s at 5×:
        // the fleet of 40 s (nothing on air) at once, the show at 45 s, the end at 50 s.
        let result = try BeaconExecutable.run(["play", "scenarios/region-exit.yaml", "-i", "virtual", "--json",
                                               "--from", "40s", "--duration", "10s", "--speed", "5"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("playing 40 s to 50 s of scenario time at 5× speed: 2 s of wall clock; beacon intervals unchanged"), "\(result)")
        let objects = try Self.objects(result)
        let start = try #require(objects.first { $0["event"] as? String == "scenario-start" }, "\(result)")
        #expect(Self.time(start) == 40 && (start["on_air"] as? [String]) == [], "\(start)")
        let steps = objects.filter { $0["event"] as? String == "scenario-step" }
        #expect(steps.map(Self.time) == [45], "\(result)")
        #expect(steps.first?["changes"] as? [String] == ["show entrance"], "\(result)")
        #expect(steps.first?["next"] is NSNull, "the end of the window comes before any other step\n\(result)")
        let notes = objects.filter { $0["event"] as? String == "note" }.compactMap { $0["message"] as? String }
        #expect(notes.contains("scenario over at 50 s"), "\(notes)")
        #expect(objects.last?["event"] as? String == "stopped", "the teardown is the last word\n\(result)")
    }

    @Test func fromInALaterPassStartsFromThatPassState() throws {
        // store-opening: all four hidden at each pass start, shown at 2, 7, 12, 17 s of a 35 s
        // pass. From 50 s (15 s into pass 2): three beacons on air at once, then the fourth.
        let result = try BeaconExecutable.run(["play", "scenarios/store-opening.yaml", "-i", "virtual", "--json",
                                               "--from", "50s", "--duration", "3s", "--speed", "10"])
        #expect(result.status == 0, "\(result)")
        let objects = try Self.objects(result)
        let start = try #require(objects.first { $0["event"] as? String == "scenario-start" }, "\(result)")
        #expect(start["on_air"] as? [String] == ["room-west", "room-north", "room-east"], "\(start)")
        let steps = objects.filter { $0["event"] as? String == "scenario-step" }
        #expect(steps.map(Self.time) == [52], "\(result)")
        #expect(steps.first?["on_air"] as? [String] == ["room-west", "room-north", "room-east", "room-south"], "\(result)")
    }

    @Test func thePlanIsShownOncePerChangeOfPlanAndNeverAsZeroBeacons() throws {
        // Three passes: every beacon hidden at each start and at 30 s, shown one by one,
        // room-west's major changed six times a pass (the same plan: nothing shown).
        let text = try BeaconExecutable.run(["play", "scenarios/store-opening.yaml", "-i", "virtual", "--speed", "20", "--duration", "35s"])
        #expect(text.status == 0, "\(text)")
        let plans = text.stderr.split(separator: "\n").filter { $0.hasPrefix("plan:") }
        #expect(!text.stderr.contains("0 beacons") && !text.stderr.contains("every 0 ms"), "\(text)")
        #expect(plans.first == "plan: no beacons on air", "the fleet starts with every beacon hidden\n\(text)")
        // At most one line per change of plan: the start, four shows and the closing (updates
        // that coalesce on the controller may show fewer), none for the six major changes.
        #expect((2...6).contains(plans.count), "\(text)")
        #expect(!text.stderr.contains("  virtual:"), "a change of plan is one line, not the whole plan again\n\(text)")

        let json = try BeaconExecutable.run(["play", "scenarios/store-opening.yaml", "-i", "virtual", "--speed", "20", "--duration", "35s", "--json"])
        #expect(json.status == 0, "\(json)")
        let shown = try Self.objects(json).filter { $0["event"] as? String == "plan" }.map { object in
            ((object["plan"] as? [String: Any])?["beacons"] as? [[String: Any]] ?? []).compactMap { $0["beacon"] as? String }
        }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 }, "no plan is shown twice in a row: \(shown)")
        #expect(shown.count <= 6, "\(shown)")
    }

    @Test("bad windows are refused before anything is opened", arguments: [
        (["--speed", "0"], "--speed must be from 0.01 to 1000 scenario seconds per second (got 0.0)"),
        (["--speed", "2000"], "--speed must be from 0.01 to 1000"),
        (["--from", "60s"], "--from must be before the scenario's end at 60 s (got 60 s)"),
        (["--from=-1s"], "--from"),
        (["--duration", "0"], "--duration"),
        (["--dry-run", "--speed", "2"], "--dry-run lists every step of the scenario: it takes no --from, --duration or --speed"),
    ])
    func badWindows(arguments: [String], message: String) throws {
        let result = try BeaconExecutable.run(["play", "scenarios/region-exit.yaml", "-i", "virtual"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(!result.stderr.contains("advertiser"), "nothing went on air\n\(result)")
    }
}
