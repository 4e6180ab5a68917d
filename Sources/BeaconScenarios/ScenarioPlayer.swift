// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconProfiles
import HCI

/// Plays a ``ScenarioTimeline`` on a running fleet: at each change's time the fleet is updated
/// with the beacons then on air (changes at the same time go as one update; only the difference
/// is sent). Every pass starts from the fleet as declared. A ``PlaybackWindow`` picks the part
/// played (from a scenario time, for a length of scenario time) and the clock's speed.
public struct ScenarioPlayer: Sendable {
    public let timeline: ScenarioTimeline
    /// How often the clock is reported between steps, seconds of wall time (nil: never).
    public let clockEvery: Double?
    public let window: PlaybackWindow

    /// `window` must pass ``PlaybackWindow/check(against:)``.
    public init(_ timeline: ScenarioTimeline, window: PlaybackWindow = PlaybackWindow(), clockEvery: Double? = 5) {
        precondition(clockEvery.map { $0 > 0 } ?? true)
        precondition((try? window.check(against: timeline)) != nil)
        self.timeline = timeline
        self.window = window
        self.clockEvery = clockEvery
    }

    /// What the player reports as it goes.
    public enum Event: Sendable {
        /// The beacons on air at scenario time `time` (the window's start) went on air;
        /// `next` is the first step after it (``ScenarioTimeline/step(after:inPass:until:)``).
        case started(time: Double, onAir: [String], next: ScenarioTimeline.PlayStep?)
        /// Every ``clockEvery`` seconds of wall clock between steps: the scenario time, and the
        /// step waited for.
        case clock(time: Double, next: ScenarioTimeline.PlayStep?)
        /// `changes` (all due at `time`, seconds of scenario clock) were posted as update
        /// `generation`; `next` is the step after them, if any (a pass's start included).
        /// `behind`: the update before had not settled yet.
        case stepped(time: Double, changes: [TimedChange], next: ScenarioTimeline.PlayStep?, onAir: [String], generation: Int, behind: Bool)
        /// A new pass begins: the fleet back as declared.
        case pass(index: Int, time: Double)
        /// The play is over at scenario time `time`: the last pass ended, or the window's
        /// duration did (not reported when the scenario loops until stopped).
        case finished(time: Double, behind: Int, failures: [TermedText])
    }

    /// The beacons to start the fleet with: the state at the window's start (every change at
    /// or before it applied).
    public var initialBeacons: [BeaconProfile] { timeline.state(at: window.from).onAir }

    /// The pass the window starts in.
    private var firstPass: Int {
        let duration = timeline.scenario.duration
        guard duration > 0 else { return 0 }
        let index = Int((window.from / duration).rounded(.down))
        return timeline.scenario.passes.map { min(index, $0 - 1) } ?? index
    }

    /// Plays from `start` (when the initial beacons went on air) until the window or the last
    /// pass ends, or the task is cancelled. The fleet (a `RunningFleet`, or any other
    /// ``ScenarioStage``) must have been started with ``initialBeacons``.
    public func play(on fleet: any ScenarioStage, from start: ContinuousClock.Instant, report: @Sendable (Event) -> Void) async {
        let tracker = UpdateTracker(fleet: fleet)
        tracker.started(generation: 1)
        let duration = timeline.scenario.duration
        let end = window.end(of: timeline)
        var clock = Clock(start: start, window: window, every: clockEvery)
        /// A change is played when it comes after the window's start and not after its end.
        func inWindow(_ c: TimedChange) -> Bool { c.time > window.from && end.map { c.time <= $0 } ?? true }
        func changes(inPass index: Int) -> [TimedChange] {
            guard timeline.scenario.passes.map({ index < $0 }) ?? true else { return [] }
            return timeline.changes(inPass: index).filter(inWindow)
        }
        var index = firstPass
        // The step waited for; the timeline says which comes after each (a pass's start too).
        var next = timeline.step(after: window.from, inPass: index, until: end)
        report(.started(time: window.from, onAir: initialBeacons.map(\.name), next: next))
        while timeline.scenario.passes.map({ index < $0 }) ?? true {
            var state = index == firstPass ? timeline.state(at: window.from) : timeline.initialState
            let passStart = Double(index) * duration
            if let end, index > firstPass, passStart >= end { break }
            var pending = changes(inPass: index)
            if index > firstPass {
                // The reset is a change at the pass's start, merged with any change due then.
                guard await clock.wait(until: passStart, next: next, report: report) else { return }
                report(.pass(index: index, time: passStart))
                if pending.first?.time != passStart {
                    let posted = tracker.post(state.onAir)
                    next = timeline.step(after: passStart, inPass: index, until: end)
                    report(.stepped(time: passStart, changes: [], next: next, onAir: state.onAir.map(\.name),
                                    generation: posted.generation, behind: posted.behind))
                }
            }
            while !pending.isEmpty {
                let time = pending[0].time
                let due = pending.prefix { $0.time == time }
                pending.removeFirst(due.count)
                guard await clock.wait(until: time, next: next, report: report) else { return }
                for c in due { state.apply(c.change) }
                let posted = tracker.post(state.onAir)
                next = timeline.step(after: time, inPass: index, until: end)
                report(.stepped(time: time, changes: Array(due), next: next, onAir: state.onAir.map(\.name),
                                generation: posted.generation, behind: posted.behind))
            }
            index += 1
            if duration <= 0 { break }
        }
        guard let last = end else { return }
        guard await clock.wait(until: last, next: nil, report: report) else { return }
        report(.finished(time: last, behind: tracker.behindCount, failures: tracker.failures))
    }

    /// The scenario clock: sleeps until a scenario time, reporting the clock on the way every
    /// `every` seconds of wall clock (so a long silence still shows the clock running).
    private struct Clock {
        let start: ContinuousClock.Instant
        let window: PlaybackWindow
        let every: Double?
        /// Scenario time already reached.
        var reached: Double

        init(start: ContinuousClock.Instant, window: PlaybackWindow, every: Double?) {
            self.start = start
            self.window = window
            self.every = every
            reached = window.from
        }

        mutating func wait(until time: Double, next: ScenarioTimeline.PlayStep?, report: @Sendable (Event) -> Void) async -> Bool {
            if let every {
                var tick = ((window.wallSeconds(at: reached) / every + 1e-9).rounded(.down) + 1) * every
                while window.scenarioTime(afterWallSeconds: tick) < time - 1e-9 {
                    guard await ScenarioPlayer.sleep(until: start.adding(seconds: tick)) else { return false }
                    report(.clock(time: window.scenarioTime(afterWallSeconds: tick), next: next))
                    tick += every
                }
            }
            guard await ScenarioPlayer.sleep(until: start.adding(seconds: window.wallSeconds(at: time))) else { return false }
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
