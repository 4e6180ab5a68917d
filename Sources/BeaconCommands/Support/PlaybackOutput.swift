// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconConsole
import BeaconJSON
import BeaconPositioning
import BeaconProfiles
import BeaconRadio
import BeaconScenarios
import Foundation

/// How `play` and `walk` show their progress: a status line per scenario step (the scenario
/// clock, what changed, what is on air, the next step) or per walker position, through the run's
/// status board (a line, or a JSON object with --json). In the live view the steps are its
/// messages, and its title shows the clock and the next step, or the walker
/// (``PlaybackProgress``).
struct PlaybackOutput: Sendable {
    var json: Bool
    /// The scenario's or walk's 0 s, on the monotonic clock the player runs on.
    var start: ContinuousClock.Instant
    /// The same instant as Unix time, so that a receiver's timestamps (`locate --live --json`)
    /// can be compared with the walker's positions.
    var wallClockStart: Double
    /// The part of a scenario played and its speed: scenario times map to wall-clock times
    /// through it (a walk's clock is the wall clock).
    var window: PlaybackWindow

    /// Output for a scenario or walk whose start (the window's start) is now.
    init(json: Bool, window: PlaybackWindow = PlaybackWindow()) {
        self.json = json
        self.window = window
        start = .now
        wallClockStart = Date().timeIntervalSince1970
    }

    /// The Unix time at which scenario time `time` comes.
    func unixTime(atScenarioTime time: Double) -> Double { wallClockStart + window.wallSeconds(at: time) }

    static func announce(_ timeline: ScenarioTimeline, window: PlaybackWindow = PlaybackWindow()) {
        let s = timeline.scenario
        LineOutput.err("scenario \(s.name ?? s.file): \(Plural.of(timeline.pass.count, "change")) per pass, \(ScenarioText.passes(s)); fleet \(s.fleet.file == s.file ? "in the scenario" : s.fleet.file)")
        if window != PlaybackWindow() { LineOutput.err(Self.describe(window, of: timeline)) }
    }

    /// `playing 40 s to 50 s of scenario time at 10× speed: 1 s of wall clock`.
    static func describe(_ window: PlaybackWindow, of timeline: ScenarioTimeline) -> String {
        let end = window.end(of: timeline)
        var line = "playing \(ScenarioText.clock(window.from)) to \(end.map(ScenarioText.clock) ?? "the end (until stopped)") of scenario time"
        if window.speed != 1 { line += " at \(NumberText.string(window.speed, places: 3))× speed" }
        if let end { line += ": \(ScenarioText.clock(window.wallSeconds(at: end))) of wall clock" }
        return line + (window.speed != 1 ? "; beacon intervals unchanged" : "")
    }

    func show(_ event: ScenarioPlayer.Event, board: RunStatusBoard) {
        switch event {
        case let .stepped(time, changes, next, onAir, generation, behind):
            if json {
                out(board, .scenarioStep(scenarioTime: RunStatusBoard.round(time), unixTime: RunStatusBoard.round(unixTime(atScenarioTime: time)),
                                         changes: changes.map(\.change.description), onAir: onAir, generation: generation, behind: behind, next: Self.step(next)))
                return
            }
            let what = changes.isEmpty ? "pass starts: the fleet as declared" : changes.map(\.change.description).joined(separator: "; ")
            let upcoming = next.map(ScenarioText.next) ?? "no next step"
            board.note("scenario \(ScenarioText.clock(time)): \(what); on air: \(onAir.isEmpty ? "nothing" : onAir.joined(separator: ", ")) — \(upcoming)"
                       + (behind ? " (the update before had not been applied yet: the controller is behind the timeline)" : ""))
        case let .started(time, onAir, next):
            let upcoming = next.map(ScenarioText.next) ?? "no step"
            if json {
                out(board, .scenarioStart(scenarioTime: RunStatusBoard.round(time), unixTime: RunStatusBoard.round(wallClockStart), onAir: onAir, next: Self.step(next)))
            } else {
                board.note("scenario \(ScenarioText.clock(time)): started; on air: \(onAir.isEmpty ? "nothing" : onAir.joined(separator: ", ")) — \(upcoming)")
            }
        case let .clock(time, next):
            let upcoming = next.map(ScenarioText.next) ?? "the end"
            if json {
                out(board, .scenarioClock(scenarioTime: RunStatusBoard.round(time), next: Self.step(next)))
            } else if board.style != .table {
                // The live view's title shows the clock and the next step all the time.
                // Wall-clock time to wait, which the speed makes shorter or longer than the
                // scenario's.
                let left = next.map { " (in \(ScenarioText.clock(window.wallSeconds(at: $0.time) - window.wallSeconds(at: time))))" } ?? ""
                board.note("scenario \(ScenarioText.clock(time)) — \(upcoming)\(left)")
            }
        case let .pass(index, time):
            if !json { board.note("scenario \(ScenarioText.clock(time)): pass \(index + 1) begins") }
        case let .finished(time, behind, failures):
            let summary = "scenario over at \(ScenarioText.clock(time))" + (behind > 0 ? "; \(behind) update(s) posted before the one before was applied" : "")
                + (failures.isEmpty ? "" : "; \(failures.count) update(s) refused: \(CommandLineTerms.text(failures[0]))")
            board.note(summary)
        }
    }

    func show(_ event: WalkPlayer.Event, board: RunStatusBoard, textEvery: Double) {
        switch event {
        case let .moved(time, position, beacons, generation, behind):
            let positioned = beacons.filter { $0.position != nil }
            if json {
                let powers = positioned.map { b in
                    RunEvent.WalkerBeacon(name: b.name, measuredPower: Int(b.beacon.powerAt1m ?? 0), txPower: b.txPower.map(Int.init),
                                                distance: RunStatusBoard.round(Self.distance(position, b)))
                }
                out(board, .walker(walkTime: RunStatusBoard.round(time), unixTime: RunStatusBoard.round(wallClockStart + time),
                                   x: RunStatusBoard.round(position.x), y: RunStatusBoard.round(position.y), generation: generation, behind: behind, beacons: powers))
                return
            }
            if behind {
                board.note("walk \(NumberText.fixed(time, places: 1)) s: update \(generation ?? 0) posted before the one before was applied: the controller is behind the walk")
            }
            // A text line per `textEvery` seconds of walk, not per update (the live view's
            // title shows the walker all the time).
            let ticks = (time / textEvery).rounded()
            if board.style != .table, abs(time - ticks * textEvery) < 1e-6 {
                let each = positioned.map { b in "\(b.name) \(NumberText.fixed(Self.distance(position, b))) m (\(Int(b.beacon.powerAt1m ?? 0)) dBm)" }
                board.note("walk \(NumberText.fixed(time, places: 1)) s: walker at (\(NumberText.signed(position.x)), \(NumberText.signed(position.y))) m; " + each.joined(separator: ", "))
            }
        case let .finished(time, updates, behind, failures):
            board.note("walk over at \(NumberText.fixed(time, places: 1)) s: \(updates) updates, \(behind) late"
                       + (failures.isEmpty ? "" : "; \(failures.count) refused: \(CommandLineTerms.text(failures[0]))"))
        }
    }

    /// A --json line of the run's events (BeaconJSON's `RunEventObject`), timed by the board.
    func out(_ board: RunStatusBoard, _ kind: RunEvent) {
        LineOutput.out(RunEventObject(time: RunStatusBoard.round(board.elapsed), kind).json.text)
    }

    /// A scenario's next step as a run event gives it, its time rounded as event times are.
    static func step(_ next: ScenarioTimeline.PlayStep?) -> RunEvent.NextStep? {
        next.map { RunEvent.NextStep(time: RunStatusBoard.round($0.time), description: $0.description) }
    }

    /// The walker's plane distance to a positioned beacon.
    static func distance(_ walker: Point, _ beacon: BeaconProfile) -> Double {
        guard let p = beacon.position else { return .nan }
        return walker.distance(to: Point(x: p.x, y: p.y))
    }
}
