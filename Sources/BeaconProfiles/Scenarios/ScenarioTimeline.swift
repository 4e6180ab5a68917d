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
        pass.map { placed($0, inPass: index) }
    }

    /// `change` of ``pass`` as pass `index` plays it, in scenario time.
    func placed(_ change: TimedChange, inPass index: Int) -> TimedChange {
        var c = change
        c.time += Double(index) * scenario.duration
        c.pass = index
        return c
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
    ///
    /// Each moment keeps a whole state: a long scenario over a large fleet costs moments × fleet
    /// in memory. Work that only needs each state in turn uses ``forEachMoment(_:)``.
    public var moments: [Moment] {
        var out: [Moment] = []
        var state = initialState
        forEachMoment { time, changes, isNextPass in
            if isNextPass { state = initialState }
            for c in changes { state.apply(c.change) }
            out.append(Moment(time: time, changes: Array(changes), isNextPass: isNextPass, state: state))
            return true
        }
        return out
    }

    /// Calls `body` with each moment ``moments`` lists, in the same order, but only with its time,
    /// its changes and whether it starts the next pass (the fleet back as declared before its
    /// changes): the caller keeps one state and applies the changes itself, so walking a long
    /// scenario costs its changes, not moments × fleet. `body` returns false to stop the walk.
    public func forEachMoment<Failure: Error>(
        _ body: (_ time: Double, _ changes: ArraySlice<TimedChange>, _ isNextPass: Bool) throws(Failure) -> Bool
    ) throws(Failure) {
        var start = pass.startIndex
        while start < pass.endIndex {
            var end = start + 1
            while end < pass.endIndex, pass[end].time == pass[start].time { end += 1 }
            guard try body(pass[start].time, pass[start..<end], false) else { return }
            start = end
        }
        if scenario.passes != 1, scenario.duration > 0 {
            _ = try body(scenario.duration, self.start(ofPass: 1).changes[...], true)
        }
    }

    /// The state a pass starts from.
    public var initialState: ScenarioState { ScenarioState(fleet: scenario.fleet.beacons, hidden: scenario.hidden) }

    /// What is on air at `time` seconds (after every change at or before it).
    public func state(at time: Double) -> ScenarioState {
        var state = initialState
        for c in changes(inPass: passIndex(at: time)) where c.time <= time { state.apply(c.change) }
        return state
    }

    /// The pass (from 0) that plays at `time` seconds (the last one after the scenario's end).
    public func passIndex(at time: Double) -> Int {
        let duration = scenario.duration
        var index = duration > 0 ? Int((time / duration).rounded(.down)) : 0
        if let passes = scenario.passes { index = min(index, passes - 1) }
        return max(0, index)
    }
}

/// The fleet as a scenario has left it: every beacon with its current fields, and which are on air.
public struct ScenarioState: Hashable, Sendable {
    /// Every beacon of the fleet, in fleet order, with the fields the changes so far gave it.
    public private(set) var beacons: [BeaconProfile]
    public private(set) var hidden: Set<String>
    /// Where each name is in ``beacons`` (a fleet's names are unique), so that a change costs
    /// the beacons it names, not the whole fleet.
    private let positions: [String: Int]

    public init(fleet: [BeaconProfile], hidden: Set<String>) {
        beacons = fleet
        self.hidden = hidden
        positions = Dictionary(fleet.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where `name` is in ``beacons`` (nil: not in the fleet).
    public func position(of name: String) -> Int? { positions[name] }

    /// The beacons on air, in fleet order.
    public var onAir: [BeaconProfile] { beacons.filter { !hidden.contains($0.name) } }

    public mutating func apply(_ change: ScenarioChange) {
        for name in change.hide { hidden.insert(name) }
        for name in change.show { hidden.remove(name) }
        guard change.changesFields else { return }
        for i in Set(change.beacons.compactMap { positions[$0] }) {
            // The beacon keeps its address: it is the same advertiser with new fields, so a data
            // change stays a data change (no restart of its set).
            if change.major != nil || change.minor != nil { beacons[i].beacon.setMajorMinor(major: change.major, minor: change.minor) }
            if let power = change.measuredPower { beacons[i].beacon.setPowerAt1m(power) }
            if let power = change.powerAt0m {
                switch beacons[i].beacon {
                case .eddystoneUID(var b): b.txPower = power; beacons[i].beacon = .eddystoneUID(b)
                case .eddystoneURL(var b): b.txPower = power; beacons[i].beacon = .eddystoneURL(b)
                default: break  // the reader refuses power_at_0m on other formats
                }
            }
            if let tx = change.txPower { beacons[i].txPower = tx }
            if let interval = change.intervalMilliseconds { beacons[i].intervalMilliseconds = interval }
        }
    }
}
