// SPDX-License-Identifier: GPL-2.0-or-later

/// One change at its time from the start of the scenario.
public struct TimedChange: Hashable, Sendable {
    /// Seconds from the start of the scenario (passes included).
    public var time: Double
    /// Which pass (from 0) it belongs to.
    public var pass: Int
    public var change: ScenarioChange
    /// The step that made it.
    public var location: SourceLocation

    public init(time: Double, pass: Int, change: ScenarioChange, location: SourceLocation) {
        self.time = time
        self.pass = pass
        self.change = change
        self.location = location
    }
}

/// A scenario's steps expanded into changes in time order: repeated blocks multiplied out, each
/// pass shifted by the scenario's duration. Every pass starts from the fleet as the file
/// declares it (``Scenario/hidden`` off air), so a looping scenario plays the same way each time.
public struct ScenarioTimeline: Sendable {
    public let scenario: Scenario
    /// The changes of one pass, relative to the pass's start, in time order (steps at the same
    /// time in the order they are written).
    public let pass: [TimedChange]

    public init(_ scenario: Scenario) {
        self.scenario = scenario
        let expanded = Self.expand(scenario.steps, offset: 0)
        pass = expanded.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
    }

    /// The changes of `steps` starting at `offset` seconds, in the order written.
    static func expand(_ steps: [ScenarioStep], offset: Double) -> [TimedChange] {
        var out: [TimedChange] = []
        for step in steps {
            switch step {
            case let .change(at, change, location):
                out.append(TimedChange(time: offset + at, pass: 0, change: change, location: location))
            case let .repeated(at, count, every, inner, _):
                for k in 0..<count { out += expand(inner, offset: offset + at + Double(k) * every) }
            }
        }
        return out
    }

    /// The changes of pass `index` (from 0), in scenario time.
    public func changes(inPass index: Int) -> [TimedChange] {
        let start = Double(index) * scenario.duration
        return pass.map { c in
            var c = c
            c.time += start
            c.pass = index
            return c
        }
    }

    /// How long the whole scenario plays, seconds; nil when it loops until stopped.
    public var totalDuration: Double? { scenario.passes.map { Double($0) * scenario.duration } }

    /// One moment of a pass at which the fleet changes: the changes due then and the state they
    /// leave.
    public struct Moment: Sendable {
        public var time: Double
        public var changes: [TimedChange]
        /// Whether this is the start of the next pass (the fleet back as declared).
        public var isNextPass: Bool
        public var state: ScenarioState
    }

    /// Every moment of the first pass in time order (changes at the same time together), then the
    /// start of the second pass when there is one: every state a play puts on air after the start.
    public var moments: [Moment] {
        var out: [Moment] = []
        var state = initialState
        for c in pass {
            state.apply(c.change)
            // Compared in place: a copy of the last moment (`if let last = out.last`) would share
            // its `changes` and make every append copy them, quadratic in changes at one time.
            if !out.isEmpty, out[out.count - 1].time == c.time {
                out[out.count - 1].changes.append(c)
                out[out.count - 1].state = state
            } else {
                out.append(Moment(time: c.time, changes: [c], isNextPass: false, state: state))
            }
        }
        if scenario.passes != 1, scenario.duration > 0 {
            var next = initialState
            let first = changes(inPass: 1).prefix { $0.time == scenario.duration }
            for c in first { next.apply(c.change) }
            out.append(Moment(time: scenario.duration, changes: Array(first), isNextPass: true, state: next))
        }
        return out
    }

    /// The state a pass starts from.
    public var initialState: ScenarioState { ScenarioState(fleet: scenario.fleet.beacons, hidden: scenario.hidden) }

    /// What is on air at `time` seconds (after every change at or before it).
    public func state(at time: Double) -> ScenarioState {
        let duration = scenario.duration
        var index = duration > 0 ? Int((time / duration).rounded(.down)) : 0
        if let passes = scenario.passes { index = min(index, passes - 1) }
        var state = initialState
        for c in changes(inPass: max(0, index)) where c.time <= time { state.apply(c.change) }
        return state
    }
}

/// The fleet as a scenario has left it: every beacon with its current fields, and which are on air.
public struct ScenarioState: Hashable, Sendable {
    /// Every beacon of the fleet, in fleet order, with the fields the changes so far gave it.
    public private(set) var beacons: [BeaconProfile]
    public private(set) var hidden: Set<String>

    public init(fleet: [BeaconProfile], hidden: Set<String>) {
        beacons = fleet
        self.hidden = hidden
    }

    /// The beacons on air, in fleet order.
    public var onAir: [BeaconProfile] { beacons.filter { !hidden.contains($0.name) } }

    public mutating func apply(_ change: ScenarioChange) {
        for name in change.hide { hidden.insert(name) }
        for name in change.show { hidden.remove(name) }
        guard change.changesFields else { return }
        for i in beacons.indices where change.beacons.contains(beacons[i].name) {
            // The beacon keeps its address: it is the same advertiser with new fields, so a data
            // change stays a data change (no restart of its set).
            if change.major != nil || change.minor != nil { beacons[i].beacon.setMajorMinor(major: change.major, minor: change.minor) }
            if let power = change.measuredPower { beacons[i].beacon.setPowerAt1m(power) }
            if let tx = change.txPower { beacons[i].txPower = tx }
            if let interval = change.intervalMilliseconds { beacons[i].intervalMilliseconds = interval }
        }
    }
}
