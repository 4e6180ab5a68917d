// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Testing

/// Repeated blocks and looping passes expanded into changes in time order, and the fleet each
/// change leaves.
@Suite("Scenario timelines")
struct TimelineTests {
    static func scenario(_ steps: String, tail: String = "") throws -> Scenario {
        try ScenarioLoader.parse(ScenarioParsingTests.fleet + "steps:\n" + steps + tail, file: "t.yaml")
    }

    @Test("a repeated block: each repeat `every` apart, nested blocks multiply")
    func repeats() throws {
        let s = try Self.scenario("""
              - {at: 1s, hide: door}
              - at: 10s
                repeat: 3
                every: 4s
                steps:
                  - {at: 0, show: door}
                  - at: 1s
                    repeat: 2
                    every: 1s
                    steps: [{at: 0, beacon: till, minor: 9}]
              - {at: 2s, show: door}

            """)
        let pass = ScenarioTimeline(s).pass
        #expect(pass.map(\.time) == [1, 2, 10, 11, 12, 14, 15, 16, 18, 19, 20])
        #expect(pass.filter { $0.change.show == ["door"] }.map(\.time) == [2, 10, 14, 18])
        #expect(s.duration == 20, "the last change's time")
    }

    @Test("steps at the same time keep their written order")
    func sameTime() throws {
        let s = try Self.scenario("  - {at: 5, hide: door}\n  - {at: 5, show: door}\n  - {at: 1, hide: till}\n")
        let pass = ScenarioTimeline(s).pass
        #expect(pass.map(\.change.description) == ["hide till", "hide door", "show door"])
        #expect(ScenarioTimeline(s).state(at: 5).onAir.map(\.name) == ["door"])
    }

    @Test("passes: each shifted by the duration, each starting from the fleet as declared")
    func passes() throws {
        let s = try Self.scenario("  - {at: 1s, hide: door}\n  - {at: 2s, beacon: till, measured_power: -70}\n", tail: "duration: 5s\nloop: 3\n")
        let timeline = ScenarioTimeline(s)
        #expect(timeline.changes(inPass: 2).map(\.time) == [11, 12])
        #expect(timeline.changes(inPass: 2).allSatisfy { $0.pass == 2 })
        #expect(timeline.totalDuration == 15)
        #expect(timeline.state(at: 0.5).onAir.map(\.name) == ["door", "till"])
        #expect(timeline.state(at: 3).onAir.map(\.name) == ["till"])
        #expect(timeline.state(at: 3).beacons[1].iBeacon!.measuredPower == -70)
        #expect(timeline.state(at: 5.5).onAir.map(\.name) == ["door", "till"], "pass 2 starts afresh")
        #expect(timeline.state(at: 5.5).beacons[1].iBeacon!.measuredPower == -59)
        #expect(timeline.state(at: 100).onAir.map(\.name) == ["till"], "after the last pass: as it ended")
    }

    @Test("field changes keep the beacon's address; hidden beacons start off air")
    func fields() throws {
        let s = try Self.scenario("  - {at: 1, beacon: door, major: 7, minor: 8, interval: 250, tx_power: -4}\n  - {at: 2, show: till}\n",
                                  tail: "hidden: [till]\n")
        let timeline = ScenarioTimeline(s)
        #expect(timeline.initialState.onAir.map(\.name) == ["door"])
        let before = timeline.initialState.beacons[0]
        let after = timeline.state(at: 1).beacons[0]
        #expect(after.iBeacon!.major == 7 && after.iBeacon!.minor == 8 && after.intervalMilliseconds == 250 && after.txPower == -4)
        #expect(after.address == before.address)
        #expect(timeline.state(at: 2).onAir.map(\.name) == ["door", "till"])
    }
}
