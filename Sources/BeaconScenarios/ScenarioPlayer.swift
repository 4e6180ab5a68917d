// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconProfiles

/// Plays a ``ScenarioTimeline`` on a running fleet: at each change's time the fleet is updated
/// with the beacons then on air (changes at the same time go as one update; only the difference
/// is sent). Every pass starts from the fleet as declared.
public struct ScenarioPlayer: Sendable {
    public let timeline: ScenarioTimeline
    /// How often the clock is reported between steps, seconds (nil: never).
    public let clockEvery: Double?

    public init(_ timeline: ScenarioTimeline, clockEvery: Double? = 5) {
        precondition(clockEvery.map { $0 > 0 } ?? true)
        self.timeline = timeline
        self.clockEvery = clockEvery
    }

    /// What the player reports as it goes.
    public enum Event: Sendable {
        /// The initial beacons are on air; `next` is the first change.
        case started(onAir: [String], next: TimedChange?)
        /// Every ``clockEvery`` seconds of scenario clock between steps: what comes next.
        case clock(time: Double, next: TimedChange?)
        /// `changes` (all due at `time`, seconds of scenario clock) were posted as update
        /// `generation`; `next` is the change after them, if any. `behind`: the update before
        /// had not settled yet.
        case stepped(time: Double, changes: [TimedChange], next: TimedChange?, onAir: [String], generation: Int, behind: Bool)
        /// A new pass begins: the fleet back as declared.
        case pass(index: Int, time: Double)
        /// The last pass is over (not reported when the scenario loops until stopped).
        case finished(time: Double, behind: Int, failures: [String])
    }

    /// The beacons to start the fleet with (the state at 0 s, before any change).
    public var initialBeacons: [BeaconProfile] { timeline.initialState.onAir }

    /// Plays from `start` (when the initial beacons went on air) until the last pass ends or the
    /// task is cancelled. The fleet must have been started with ``initialBeacons``.
    public func play(on fleet: RunningFleet, from start: ContinuousClock.Instant, report: @Sendable (Event) -> Void) async {
        let tracker = UpdateTracker(fleet: fleet)
        tracker.started(generation: 1)
        let duration = timeline.scenario.duration
        var clock = Clock(start: start, every: clockEvery)
        report(.started(onAir: initialBeacons.map(\.name), next: timeline.pass.first))
        var index = 0
        while timeline.scenario.passes.map({ index < $0 }) ?? true {
            var state = timeline.initialState
            let passStart = Double(index) * duration
            var changes = timeline.changes(inPass: index)
            if index > 0 {
                // The reset is a change at the pass's start, merged with any change due then.
                guard await clock.wait(until: passStart, next: changes.first, report: report) else { return }
                report(.pass(index: index, time: passStart))
                if changes.first?.time != passStart {
                    let posted = tracker.post(state.onAir)
                    report(.stepped(time: passStart, changes: [], next: changes.first, onAir: state.onAir.map(\.name),
                                    generation: posted.generation, behind: posted.behind))
                }
            }
            while !changes.isEmpty {
                let time = changes[0].time
                let due = changes.prefix { $0.time == time }
                changes.removeFirst(due.count)
                guard await clock.wait(until: time, next: due.first, report: report) else { return }
                for c in due { state.apply(c.change) }
                let posted = tracker.post(state.onAir)
                let next = changes.first ?? (timeline.scenario.passes.map { index + 1 < $0 } ?? true ? timeline.changes(inPass: index + 1).first : nil)
                report(.stepped(time: time, changes: Array(due), next: next, onAir: state.onAir.map(\.name),
                                generation: posted.generation, behind: posted.behind))
            }
            index += 1
            if duration <= 0 { break }
        }
        let end = Double(index) * duration
        guard await clock.wait(until: end, next: nil, report: report) else { return }
        report(.finished(time: end, behind: tracker.behindCount, failures: tracker.failures))
    }

    /// The scenario clock: sleeps until a time, reporting the clock on the way at every multiple
    /// of `every` seconds (so a long silence still shows the clock running).
    private struct Clock {
        let start: ContinuousClock.Instant
        let every: Double?
        /// Scenario time already reached.
        var reached = 0.0

        mutating func wait(until time: Double, next: TimedChange?, report: @Sendable (Event) -> Void) async -> Bool {
            if let every {
                var tick = ((reached / every).rounded(.down) + 1) * every
                while tick < time - 1e-9 {
                    guard await ScenarioPlayer.sleep(until: start.adding(seconds: tick)) else { return false }
                    report(.clock(time: tick, next: next))
                    tick += every
                }
            }
            guard await ScenarioPlayer.sleep(until: start.adding(seconds: time)) else { return false }
            reached = max(reached, time)
            return true
        }
    }

    /// Sleeps until `deadline`; false when cancelled.
    static func sleep(until deadline: ContinuousClock.Instant) async -> Bool {
        do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return false }
        return true
    }
}
