// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

/// A scenario's HCI commands, step by step, for assumed controllers (what `play --dry-run`
/// lists): under each step, the difference between what is on air before and after it, planned
/// as a running fleet plans an update (beacons that stay keep their advertisers). When beacons
/// take turns, the commands are those from turn 0 to turn 0. Opens nothing.
public enum ScenarioCommandListing {
    /// Where in the scenario a listing is.
    public enum Step: Sendable {
        /// The fleet as declared going on air, from a clean controller.
        case start
        /// The changes at `time` seconds (`isNextPass`: the next pass starts there, from the fleet
        /// as declared, before its own changes).
        case moment(time: Double, changes: [ScenarioChange], isNextPass: Bool)
        /// Advertising off, sets removed.
        case teardown
    }

    /// One step's commands on one controller.
    public struct Listing: Sendable {
        /// Where in the scenario.
        public var step: Step
        /// The names of the beacons on air after the step (empty at the teardown).
        public var onAir: [String]
        /// The assumed controller.
        public var capabilities: ControllerCapabilities
        /// The commands, in order; each checked as a run checks it.
        public var commands: [any HCICommand]
    }

    /// A command an assumed controller would refuse at `step`.
    public struct Refusal: Error, Sendable {
        /// Where in the scenario.
        public var step: Step
        /// The controller, the command and why.
        public var refusal: CommandRefusal
    }

    /// Calls `body` for each step of one pass (and the next pass's start, when the scenario
    /// repeats), once per controller in `capabilities`' order, after checking that controller
    /// would take every command of it. One state is walked through the moments (a state kept per
    /// moment would cost moments × fleet). Throws the first refusal; what `body` got before it
    /// stands.
    public static func walk(_ timeline: ScenarioTimeline, planner: FleetPlanner, capabilities: [ControllerCapabilities],
                            _ body: (Listing) -> Void) throws(Refusal) {
        func emit(_ step: Step, onAir: [String], _ perAdapter: (ControllerCapabilities) -> [any HCICommand]) throws(Refusal) {
            for caps in capabilities {
                let commands = perAdapter(caps)
                do throws(CommandRefusal) { try CommandRefusal.check(commands, for: caps) } catch {
                    throw Refusal(step: step, refusal: error)
                }
                body(Listing(step: step, onAir: onAir, capabilities: caps, commands: commands))
            }
        }
        var state = timeline.initialState
        var plan = planner.plan(state.onAir, on: capabilities)
        try emit(.start, onAir: state.onAir.map(\.name)) { caps in
            let program = plan.adapters.first { $0.capabilities.adapter == caps.adapter }.map { AdvertisingProgram(plan: $0) }
            return AdvertisingProgram.clean(extended: planner.usesExtendedSets(caps)) + (program?.setup ?? [])
        }
        try timeline.forEachMoment { (time, changes, isNextPass) throws(Refusal) in
            if isNextPass { state = timeline.initialState }
            for c in changes { state.apply(c.change) }
            let next = planner.plan(state.onAir, on: capabilities, keeping: plan)
            let before = plan
            try emit(.moment(time: time, changes: changes.map(\.change), isNextPass: isNextPass), onAir: state.onAir.map(\.name)) { caps in
                AdvertisingProgram.steps(from: firstState(before, caps), to: firstState(next, caps), extended: planner.usesExtendedSets(caps))
            }
            plan = next
            return true
        }
        try emit(.teardown, onAir: []) { AdvertisingProgram.clean(extended: planner.usesExtendedSets($0)) }
    }

    /// What `plan` puts on air on the adapter `caps` in its first turn.
    static func firstState(_ plan: FleetPlan, _ caps: ControllerCapabilities) -> AdvertisingState {
        plan.adapters.first { $0.capabilities.adapter == caps.adapter }.map { AdvertisingProgram.states(of: $0)[0] } ?? [:]
    }
}
