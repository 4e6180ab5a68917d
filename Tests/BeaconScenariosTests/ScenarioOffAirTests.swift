// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import BeaconScenarios
import Testing

/// Since when a scenario's beacons are off air as a play goes: a step's hide starts the time, a
/// show ends it, a pass's start puts the fleet back as declared (a beacon off air across it keeps
/// its time), and a play started late (`--from`) finds the times the timeline left.
@Suite("A scenario's beacons off air, and since when")
struct ScenarioOffAirTests {
    /// `door` on air and `till` hidden when a pass starts; at 3 s door hides, at 4 s till shows,
    /// at 5 s door hides again (already off); `desk` is never shown. Passes of 6 s, looping.
    static func timeline() throws -> ScenarioTimeline {
        let fleet = ScenarioParsingTests.fleet.replacingOccurrences(of: "    - {name: till, minor: 2}\n", with: "    - {name: till, minor: 2}\n    - {name: desk, minor: 3}\n")
        let text = fleet + "hidden: [till, desk]\nsteps:\n  - {at: 3s, hide: door}\n  - {at: 4s, show: till}\n  - {at: 5s, hide: door}\n"
            + "duration: 6s\nloop: true\n"
        return ScenarioTimeline(try ScenarioLoader.parse(text, file: "t.yaml"))
    }

    /// The player's events for pass `index` up to scenario time `until`: its start (after the
    /// first pass), then each moment's changes.
    static func events(_ t: ScenarioTimeline, pass index: Int) -> [ScenarioPlayer.Event] {
        let start = Double(index) * t.scenario.duration
        let changes = t.changes(inPass: index)
        var out: [ScenarioPlayer.Event] = index > 0 ? [.pass(index: index, time: start)] : []
        for time in Set(changes.map(\.time)).sorted() {
            out.append(.stepped(time: time, changes: changes.filter { $0.time == time }, next: nil, onAir: [], generation: 1, behind: false))
        }
        return out
    }

    static func time(_ event: ScenarioPlayer.Event) -> Double {
        switch event {
        case let .stepped(time, _, _, _, _, _), let .pass(_, time): time
        default: -1
        }
    }

    @Test("hides and shows: off air from the hide to the show, a second hide keeps the first's time")
    func hidesAndShows() throws {
        let t = try Self.timeline()
        var offAir = ScenarioOffAir(t, at: 0)
        #expect(offAir.cast.map(\.name) == ["door", "till", "desk"])
        #expect(offAir.since == ["till": 0, "desk": 0])
        var seen: [Double: [String: Double]] = [:]
        for event in Self.events(t, pass: 0) + Self.events(t, pass: 1) {
            offAir.record(event)
            seen[Self.time(event)] = offAir.since
            // The same beacons as the timeline has off air then.
            #expect(Set(offAir.since.keys) == t.state(at: Self.time(event)).hidden, "at \(Self.time(event))")
        }
        #expect(seen[3] == ["door": 3, "till": 0, "desk": 0])
        #expect(seen[4] == ["door": 3, "desk": 0])
        #expect(seen[5] == ["door": 3, "desk": 0])
        // The next pass: door back on air, till hidden again from then, desk still off since 0 s.
        #expect(seen[6] == ["till": 6, "desk": 0])
        #expect(seen[9] == ["door": 9, "till": 6, "desk": 0])
        #expect(offAir.stateText(of: "door") == "off air since 9 s" && offAir.stateText(of: "till") == "off air")
        #expect(offAir.offAir.map(\.name) == ["door", "desk"])
    }

    @Test("a play from a later time finds the times the timeline left, across a pass's start too")
    func fromLater() throws {
        let t = try Self.timeline()
        #expect(ScenarioOffAir(t, at: 3.5).since == ["door": 3, "till": 0, "desk": 0])
        #expect(ScenarioOffAir(t, at: 10).since == ["door": 9, "desk": 0])
        // Off air at a pass's end and hidden when the next starts: off since the hide before.
        let closing = ScenarioTimeline(try ScenarioLoader.parse(ScenarioParsingTests.fleet
            + "hidden: [door]\nsteps:\n  - {at: 1s, show: door}\n  - {at: 4s, hide: door}\nduration: 6s\nloop: 3\n", file: "c.yaml"))
        #expect(ScenarioOffAir(closing, at: 6.5).since == ["door": 4])
        #expect(ScenarioOffAir(closing, at: 0.5).since == ["door": 0])
        var played = ScenarioOffAir(closing, at: 5)
        played.record(.pass(index: 1, time: 6))
        #expect(played.since == ["door": 4], "kept across the pass's start")
        // Long after the last pass: the last pass's end.
        #expect(ScenarioOffAir(closing, at: 100).since == ["door": 16])
    }
}
