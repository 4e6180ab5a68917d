// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import BeaconProfiles
import HCI

/// Checks, before anything is sent, that the controllers would take every state a scenario puts
/// on air (not only the first): each moment's plan is checked command by command, as a start
/// checks its first plan. A scenario that would fail half-way (an interval below a Bluetooth 4.x
/// controller's 100 ms, a TX power it cannot take…) is refused whole.
///
/// The work is bounded whatever the scenario (100,000 changes over 65,536 beacons included):
/// - a state is planned only when what the planner reads differs from every state planned
///   before: which beacons are on air, with which interval and TX power (``StateDigest``). A
///   step that only changes major, minor or measured power changes bytes of the same length
///   in the same commands, so its state gets the verdict of the one before; a state seen
///   before (a blinking beacon, a repeated block) gets the verdict it had then;
/// - whole states are planned until ``wholeStateBudget`` beacons have been planned in all;
///   past it, each moment's new or changed beacons are checked on their own, once per
///   interval, TX power and way of going on air each takes: a plan of the beacon alone on each
///   controller, or, when the fleet on air is larger than the controllers' advertisers (beacons
///   take turns, and the planner fits a rotating beacon's interval to its controller), a plan
///   of the beacon taking turns with a copy of itself on one advertiser. Whole plans are what the planner builds
///   to fit a controller's sets, turns and handles; what a controller refuses in them comes
///   from a beacon's own interval, TX power and data, and from whether it takes turns.
public enum ScenarioPreflight {
    /// One state a controller would refuse.
    public struct Refusal: Sendable, CustomStringConvertible {
        public var time: Double
        /// The step that leads to it (nil: the start).
        public var location: SourceLocation?
        public var adapter: AdapterName
        public var reason: String

        public var description: String {
            let at = location.map { "\($0): " } ?? ""
            return "\(at)the fleet as it is at \(NumberText.string(time, places: 3)) s would be refused by \(adapter): \(reason)"
        }
    }

    /// What a check cost: how much planning it did, for tests and benchmarks.
    public struct Work: Sendable, Equatable {
        /// Moments visited (the start included).
        public var states = 0
        /// Whole states planned (each a ``FleetPlanner/plan(_:on:keeping:)`` of every beacon on air).
        public var wholePlans = 0
        /// Beacons in those plans, together.
        public var beaconsPlanned = 0
        /// Beacons planned on their own, past the budget (one plan per controller each).
        public var singleBeaconPlans = 0
    }

    /// The refusals and the work done.
    public struct Outcome: Sendable {
        public var refusals: [Refusal]
        public var work: Work
    }

    /// Beacons planned in whole states before the check goes beacon by beacon (about a second
    /// of planning in a release build; see BENCHMARKS.md). The start is always planned whole.
    public static let wholeStateBudget = 100_000

    /// The refusals, in time order (empty: every state can go on air). Controllers driven through
    /// the management API are left to their own checks (their requests are not HCI commands).
    /// `stopped` is asked before each moment: once it says yes the check ends, with the
    /// refusals found so far (a stop signal must not wait for a long scenario's every state).
    public static func refusals(_ timeline: ScenarioTimeline, planner: FleetPlanner, capabilities: [ControllerCapabilities],
                                stopped: () -> Bool = { false }) -> [Refusal] {
        check(timeline, planner: planner, capabilities: capabilities, stopped: stopped).refusals
    }

    /// ``refusals(_:planner:capabilities:stopped:)`` with the work it took; `budget` is
    /// ``wholeStateBudget`` but for tests.
    public static func check(_ timeline: ScenarioTimeline, planner: FleetPlanner, capabilities: [ControllerCapabilities],
                             budget: Int = wholeStateBudget, stopped: () -> Bool = { false }) -> Outcome {
        let hci = capabilities.filter { $0.managementAPI == nil }
        var work = Work()
        guard !hci.isEmpty else { return Outcome(refusals: [], work: work) }
        var out: [Refusal] = []
        var state = timeline.initialState
        var digest = StateDigest(state)
        let initialDigest = digest
        // Verdicts by state (whole plans) and by beacon setting (past the budget): (adapter, reason).
        var verdicts: [StateDigest: [(AdapterName, String)]] = [:]
        var beaconVerdicts: [BeaconSetting: [(AdapterName, String)]] = [:]
        var previous: FleetPlan?
        // Past this many beacons on air, beacons take turns.
        let advertisers = hci.map(planner.usableSets).reduce(0, +)
        var onOneSet = planner
        onOneSet.maximumSets = 1

        func refused(_ plan: FleetPlan) -> [(AdapterName, String)] {
            var found: [(AdapterName, String)] = []
            for adapterPlan in plan.adapters {
                do throws(CommandRefusal) {
                    try CommandRefusal.check(AdvertisingProgram(plan: adapterPlan).allCommands, for: adapterPlan.capabilities)
                } catch {
                    found.append((error.adapter, "\(error.command): \(error.error)"))
                }
            }
            return found
        }

        /// Checks the state as it is now; `touched` are the fleet positions the moment changed.
        func visit(time: Double, location: SourceLocation?, touched: Set<Int>) -> Bool {
            if stopped() { return false }
            work.states += 1
            var found: [(AdapterName, String)]
            if let known = verdicts[digest] {
                found = known
            } else if work.wholePlans == 0 || work.beaconsPlanned + digest.count <= budget {
                // Planned as a running fleet plans each update: from the plan before it.
                let onAir = state.onAir
                let plan = planner.plan(onAir, on: hci, keeping: previous)
                previous = plan
                work.wholePlans += 1
                work.beaconsPlanned += onAir.count
                found = refused(plan)
                verdicts[digest] = found
            } else {
                found = []
                let rotates = digest.count > advertisers
                for position in touched.sorted() where !state.hidden.contains(state.beacons[position].name) {
                    let beacon = state.beacons[position]
                    let setting = BeaconSetting(position: position, beacon: beacon, rotates: rotates)
                    if beaconVerdicts[setting] == nil {
                        beaconVerdicts[setting] = hci.flatMap { caps in
                            work.singleBeaconPlans += 1
                            // Taking turns: with a copy of itself on one advertiser (the commands
                            // of a turn are those of any number of turns, in the same mode).
                            var copy = beacon
                            copy.name += "#2"
                            return refused((rotates ? onOneSet : planner).plan(rotates ? [beacon, copy] : [beacon], on: [caps]))
                        }
                    }
                    found += beaconVerdicts[setting]!
                }
                // Once per adapter, as a whole plan reports it.
                var seen: Set<AdapterName> = []
                found = found.filter { seen.insert($0.0).inserted }
            }
            out += found.map { Refusal(time: time, location: location, adapter: $0.0, reason: $0.1) }
            return true
        }

        guard visit(time: 0, location: nil, touched: Set(state.beacons.indices)) else { return Outcome(refusals: out, work: work) }
        timeline.forEachMoment { time, changes, isNextPass in
            if isNextPass {
                state = timeline.initialState
                digest = initialDigest
            }
            var touched: Set<Int> = []
            for c in changes {
                for name in c.change.hide + c.change.show + (c.change.changesFields ? c.change.beacons : []) {
                    if let p = state.position(of: name) { touched.insert(p) }
                }
            }
            for p in touched { digest.remove(p, of: state) }
            for c in changes { state.apply(c.change) }
            for p in touched { digest.add(p, of: state) }
            if isNextPass { touched = Set(state.beacons.indices) }
            return visit(time: time, location: changes.first?.location, touched: touched)
        }
        return Outcome(refusals: out, work: work)
    }
}

/// What the planner reads of one beacon, where it is in the fleet, and whether it takes turns.
struct BeaconSetting: Hashable {
    var position: Int
    var interval: Double
    var txPower: Int8?
    /// Whether it takes turns with other beacons on its advertiser.
    var rotates: Bool

    init(position: Int, beacon: BeaconProfile, rotates: Bool) {
        self.position = position
        interval = beacon.intervalMilliseconds
        txPower = beacon.txPower
        self.rotates = rotates
    }
}

/// A 128-bit digest of what the planner reads of a state (which beacons are on air, with which
/// interval and TX power): a sum of one term per beacon on air, so that a change costs the
/// beacons it touches, not the fleet. Two independent 64-bit mixes make a collision between the
/// states of one scenario vanishingly unlikely.
struct StateDigest: Hashable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    /// Beacons on air.
    private(set) var count = 0

    init(_ state: ScenarioState) {
        for p in state.beacons.indices { add(p, of: state) }
    }

    mutating func add(_ position: Int, of state: ScenarioState) {
        guard let term = Self.term(position, of: state) else { return }
        low &+= term.0
        high &+= term.1
        count += 1
    }

    mutating func remove(_ position: Int, of state: ScenarioState) {
        guard let term = Self.term(position, of: state) else { return }
        low &-= term.0
        high &-= term.1
        count -= 1
    }

    /// The beacon's term; nil when it is off air.
    private static func term(_ position: Int, of state: ScenarioState) -> (UInt64, UInt64)? {
        let beacon = state.beacons[position]
        guard !state.hidden.contains(beacon.name) else { return nil }
        let tx = beacon.txPower.map { UInt64(UInt8(bitPattern: $0)) | 0x100 } ?? 0
        let fields = [UInt64(position), beacon.intervalMilliseconds.bitPattern, tx]
        return (fields.reduce(0x243F_6A88_85A3_08D3) { mix($0 ^ $1) }, fields.reduce(0x1319_8A2E_0370_7344) { mix($0 &+ $1) })
    }

    /// splitmix64's finaliser: every input bit moves about half the output bits.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
