// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconProfiles

/// Which part of a scenario a play covers and how fast its clock runs (`play --from`,
/// `--duration`, `--speed`). All three are on the scenario clock: `from` and `duration` are
/// seconds of scenario time, whatever the speed, so `--from 40s --duration 10s` plays the
/// scenario's 40–50 s whether that takes 10 s or, at `--speed 10`, 1 s.
///
/// Only the scenario clock changes: the beacons advertise at their own intervals (a property of
/// each beacon, kept legal by the profile's range, never scaled), so at a high speed a beacon
/// shown for a short stretch of scenario time is on air for fewer advertising events.
public struct PlaybackWindow: Hashable, Sendable {
    /// Seconds of scenario time per second of wall time that a play may run at: from a hundredth
    /// (a 1 s step takes 100 s) to a thousandfold (a week of scenario in about 10 minutes).
    public static let speedRange: ClosedRange<Double> = 0.01...1000

    /// Where the play starts, seconds of scenario time (passes included): the fleet as it is
    /// then goes on air at once.
    public var from: Double
    /// How much scenario time is played from `from`, seconds; nil: to the end of the last pass
    /// (or until stopped, for a scenario that loops until stopped).
    public var duration: Double?
    /// Scenario seconds per wall-clock second.
    public var speed: Double

    public init(from: Double = 0, duration: Double? = nil, speed: Double = 1) {
        self.from = from
        self.duration = duration
        self.speed = speed
    }

    /// Why a window does not fit a scenario.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case speed(Double)
        case from(Double)
        case duration(Double)
        case fromPastEnd(from: Double, end: Double)

        /// The setting at fault: `speed`, `from` or `duration` (the command's option names).
        public var setting: String {
            switch self {
            case .speed: "speed"
            case .from, .fromPastEnd: "from"
            case .duration: "duration"
            }
        }

        /// What is allowed, and what was given.
        public var requirement: String {
            switch self {
            case .speed(let s):
                "must be from \(NumberText.string(PlaybackWindow.speedRange.lowerBound, places: 3)) to \(NumberText.string(PlaybackWindow.speedRange.upperBound, places: 3)) scenario seconds per second (got \(s))"
            case .from(let t): "must be a scenario time of 0 s or more (got \(t))"
            case .duration(let d): "must be more than 0 s of scenario time (got \(d))"
            case let .fromPastEnd(from, end):
                "must be before the scenario's end at \(NumberText.string(end, places: 3)) s (got \(NumberText.string(from, places: 3)) s)"
            }
        }

        public var description: String { "\(setting) \(requirement)" }
    }

    /// Checks the window on its own (the range of each value).
    public func check() throws(Problem) {
        guard speed.isFinite, Self.speedRange.contains(speed) else { throw .speed(speed) }
        guard from.isFinite, from >= 0 else { throw .from(from) }
        if let duration, !(duration.isFinite && duration > 0) { throw .duration(duration) }
    }

    /// Checks the window against `timeline`: it must start before the scenario's end.
    public func check(against timeline: ScenarioTimeline) throws(Problem) {
        try check()
        if let end = timeline.totalDuration, from >= end, !(from == 0 && end == 0) { throw .fromPastEnd(from: from, end: end) }
    }

    /// The scenario time at which the play ends: the end of the last pass or `from + duration`,
    /// whichever comes first; nil when it plays until stopped.
    public func end(of timeline: ScenarioTimeline) -> Double? {
        let cut = duration.map { from + $0 }
        switch (timeline.totalDuration, cut) {
        case let (total?, cut?): return min(total, cut)
        case let (total, cut): return total ?? cut
        }
    }

    /// Wall-clock seconds from the start of the play to scenario time `time`.
    public func wallSeconds(at time: Double) -> Double { (time - from) / speed }

    /// The scenario time `seconds` of wall clock after the start of the play.
    public func scenarioTime(afterWallSeconds seconds: Double) -> Double { from + seconds * speed }
}
