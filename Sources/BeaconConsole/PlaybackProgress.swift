// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconProfiles
import BeaconRadio
import BeaconScenarios
import Synchronization

/// Where a scenario or a walk stands, fed by the player's events and read by the live view's
/// redraws (so the clock runs between steps): give ``scenarioHeadline(_:window:)`` or
/// ``walkHeadline()`` to ``RunStatusBoard/show(headline:)``.
public final class PlaybackProgress: Sendable {
    private struct State {
        var next: ScenarioTimeline.PlayStep?
        var started = false
        var over: Double?
        var walker: Point?
        var updates = 0
        var late = 0
    }

    private let state = Mutex(State())
    /// When the scenario or walk began (its time 0 on the wall clock).
    public let start: ContinuousClock.Instant

    public init(start: ContinuousClock.Instant) { self.start = start }

    /// Takes one of the scenario player's events.
    public func record(_ event: ScenarioPlayer.Event) {
        state.withLock { s in
            switch event {
            case let .started(_, _, next): s.started = true; s.next = next
            case let .clock(_, next): s.next = next
            case let .stepped(_, _, next, _, _, behind): s.next = next; if behind { s.late += 1 }
            case .pass: break
            case let .finished(time, behind, _): s.over = time; s.next = nil; s.late = behind
            }
        }
    }

    /// Takes one of the walk player's events.
    public func record(_ event: WalkPlayer.Event) {
        state.withLock { s in
            s.started = true
            switch event {
            case let .moved(_, position, _, generation, behind):
                s.walker = position
                if generation != nil { s.updates += 1 }
                if behind { s.late += 1 }
            case let .finished(time, updates, behind, _): s.over = time; s.updates = updates; s.late = behind
            }
        }
    }

    private var elapsed: Double { (ContinuousClock.now - start).seconds }

    /// `scenario 12.3 s (pass 2 of 3) · next at 17 s: show room-south`.
    public func scenarioHeadline(_ scenario: Scenario, window: PlaybackWindow) -> RunStatusBoard.Headline {
        let s = state.withLock { $0 }
        let now = s.over ?? window.scenarioTime(afterWallSeconds: elapsed)
        var title = "scenario \(s.over == nil ? "" : "over at ")\(NumberText.fixed(now, places: 1)) s"
        if scenario.passes != 1, scenario.duration > 0, s.over == nil {
            let pass = Int(now / scenario.duration) + 1
            title += " (pass \(pass)\(scenario.passes.map { " of \($0)" } ?? ""))"
        }
        if s.over == nil {
            title += " · " + (s.next.map(ScenarioText.next) ?? "no next step")
        }
        return .init(title: title, late: s.late)
    }

    /// `walk 12.3 s, walker at (+0.50, -1.00) m · 61 updates`.
    public func walkHeadline() -> RunStatusBoard.Headline {
        let s = state.withLock { $0 }
        let now = s.over ?? elapsed
        var title = "walk \(s.over == nil ? "" : "over at ")\(NumberText.fixed(now, places: 1)) s"
        if let w = s.walker { title += ", walker at (\(Self.signed(w.x)), \(Self.signed(w.y))) m" }
        title += " · \(RunStatusBoard.count(s.updates, "update"))"
        return .init(title: title, late: s.late)
    }

    static func signed(_ v: Double) -> String { (v < 0 ? "-" : "+") + NumberText.fixed(abs(v), places: 2) }
}
