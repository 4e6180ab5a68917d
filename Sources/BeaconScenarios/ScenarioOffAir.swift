// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles

/// Which of a scenario's beacons are off air during a play, and since when (scenario time), fed
/// by the ``ScenarioPlayer``'s events.
///
/// The scenario's fleet is its whole cast: a beacon a step hides (or `hidden:` keeps off air
/// when a pass starts) is still one of its beacons, so a live view keeps its row and a map its
/// marker, off air since the hide, until a step or the next pass shows it again. The fleet's
/// plan cannot tell that apart from a beacon gone for good: it only has the beacons on air. A
/// run with no scenario (`advertise`, whose SIGHUP reload may remove beacons) has no cast, and
/// the beacons a reload removes leave its view.
public struct ScenarioOffAir: Sendable, Equatable {
    /// Every beacon the scenario declares, in fleet order, with its fields as declared.
    public let cast: [BeaconProfile]
    /// For each beacon off air now: the scenario time (seconds, passes included) since which it
    /// has been off air without a break.
    public private(set) var since: [String: Double] = [:]
    /// The beacons off air when a pass starts (``Scenario/hidden``).
    private let hiddenAtPassStart: Set<String>

    /// The cast as it stands at scenario time `time` (every change at or before it applied), as
    /// ``ScenarioTimeline/state(at:)`` has it; then ``record(_:)`` follows the play from there.
    /// Costs the changes of one pass.
    public init(_ timeline: ScenarioTimeline, at time: Double) {
        let scenario = timeline.scenario
        cast = scenario.fleet.beacons
        hiddenAtPassStart = scenario.hidden
        let index = timeline.passIndex(at: time)
        let passStart = Double(index) * scenario.duration
        // A beacon off air at a pass's start was off air at the pass before's end already when
        // that pass's last word on it was a hide: it has been off since that hide. One a pass
        // never shows is off air all along.
        var last: [String: (time: Double, hides: Bool)] = [:]
        for c in timeline.pass {
            for name in c.change.hide { last[name] = (c.time, true) }
            for name in c.change.show { last[name] = (c.time, false) }
        }
        for name in scenario.hidden {
            switch last[name] {
            case nil: since[name] = 0
            case let (hideTime, true)? where index > 0: since[name] = passStart - scenario.duration + hideTime
            default: since[name] = passStart
            }
        }
        for c in timeline.changes(inPass: index) where c.time <= time { apply(c.change, at: c.time) }
    }

    /// Takes one of the player's events: a step's hides and shows, a pass's start (the beacons
    /// back as declared).
    public mutating func record(_ event: ScenarioPlayer.Event) {
        switch event {
        case let .pass(_, time):
            since = since.filter { hiddenAtPassStart.contains($0.key) }
            for name in hiddenAtPassStart where since[name] == nil { since[name] = time }
        case let .stepped(time, changes, _, _, _, _):
            for c in changes { apply(c.change, at: time) }
        case .started, .clock, .finished:
            break
        }
    }

    /// A change at `time`: in ``ScenarioState/apply(_:)``'s order (hides, then shows). Hiding
    /// a beacon already off air keeps the time it went off.
    private mutating func apply(_ change: ScenarioChange, at time: Double) {
        for name in change.hide where since[name] == nil { since[name] = time }
        for name in change.show { since[name] = nil }
    }

    /// The cast's beacons off air now, in fleet order.
    public var offAir: [BeaconProfile] { cast.filter { since[$0.name] != nil } }

    /// `off air since 12 s` (`off air` for a beacon not off air by the scenario: one the fleet
    /// has not put back on air yet).
    public func stateText(of name: String) -> String {
        since[name].map { "off air since \(ScenarioText.clock($0))" } ?? "off air"
    }
}
