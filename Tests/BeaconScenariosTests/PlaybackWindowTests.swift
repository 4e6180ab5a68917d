// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import BeaconScenarios
import Testing

/// `play --from/--duration/--speed` as a window on the scenario clock: which values are allowed,
/// where the play ends, and how scenario time maps to wall-clock time.
@Suite("Playback windows")
struct PlaybackWindowTests {
    /// Two passes of 20 s.
    static func timeline() throws -> ScenarioTimeline {
        ScenarioTimeline(try TimelineTests.scenario("  - {at: 5s, hide: door}\n", tail: "duration: 20s\nloop: 2\n"))
    }

    @Test("the end: the last pass's, or from + duration when that comes first")
    func end() throws {
        let t = try Self.timeline()
        #expect(PlaybackWindow().end(of: t) == 40)
        #expect(PlaybackWindow(from: 12, duration: 10).end(of: t) == 22)
        #expect(PlaybackWindow(from: 35, duration: 10).end(of: t) == 40)
    }

    @Test("scenario time runs `speed` times as fast as the wall clock, from `from`")
    func clock() {
        let w = PlaybackWindow(from: 40, duration: 10, speed: 5)
        #expect(w.wallSeconds(at: 45) == 1)
        #expect(w.scenarioTime(afterWallSeconds: 2) == 50)
    }

    @Test("out of range: the speed, a negative start, a start at or past the end, a duration of 0")
    func refusals() throws {
        let t = try Self.timeline()
        #expect(throws: PlaybackWindow.Problem.speed(0)) { try PlaybackWindow(speed: 0).check(against: t) }
        #expect(throws: PlaybackWindow.Problem.speed(1001)) { try PlaybackWindow(speed: 1001).check(against: t) }
        #expect(throws: PlaybackWindow.Problem.from(-1)) { try PlaybackWindow(from: -1).check(against: t) }
        #expect(throws: PlaybackWindow.Problem.fromPastEnd(from: 40, end: 40)) { try PlaybackWindow(from: 40).check(against: t) }
        #expect(throws: PlaybackWindow.Problem.duration(0)) { try PlaybackWindow(duration: 0).check(against: t) }
        try PlaybackWindow(from: 39.9, speed: PlaybackWindow.speedRange.upperBound).check(against: t)
        try PlaybackWindow(speed: PlaybackWindow.speedRange.lowerBound).check(against: t)
        #expect(PlaybackWindow.Problem.speed(0).description == "speed must be from 0.01 to 1000 scenario seconds per second (got 0.0)")
    }
}
