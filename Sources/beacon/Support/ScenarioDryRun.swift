// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

/// `play --dry-run`: the scenario's timeline, and under each step the HCI commands it sends
/// (the difference between what is on air before and after), for assumed controllers. Opens
/// nothing. When beacons take turns, the commands shown are those from turn 0 to turn 0.
struct ScenarioDryRun {
    var timeline: ScenarioTimeline
    var planner: FleetPlanner
    var capabilities: [ControllerCapabilities]
    var hcitoolAdapter: String
    var json: Bool

    func print() throws(ExitCode) {
        let scenario = timeline.scenario
        let listing = DryRunListing(hcitoolAdapter: hcitoolAdapter)
        if !json {
            LineOutput.out("# dry run: no adapter is opened, nothing is sent")
            let fleet = scenario.fleet.file == scenario.file ? "its own fleet" : scenario.fleet.file
            LineOutput.out("# scenario \(scenario.file) over \(fleet): \(PlaybackOutput.passes(scenario))")
            LineOutput.out("# timeline (each pass starts from the fleet as declared):")
            for c in timeline.pass {
                LineOutput.out("#   \(PlaybackOutput.clock(c.time))  \(c.change)  (\(c.location))")
            }
        }
        var state = timeline.initialState
        var plan = planner.plan(state.onAir, on: capabilities)
        try emit(section: "start", title: "start (0 s): fleet on air: \(Self.names(state))",
                 perAdapter: { caps in
                     let program = plan.adapters.first { $0.capabilities.adapter == caps.adapter }.map { AdvertisingProgram(plan: $0) }
                     return AdvertisingProgram.clean(extended: planner.usesExtendedSets(caps)) + (program?.setup ?? [])
                 }, listing: listing)
        // One state walked through the moments (a state kept per moment would cost moments × fleet).
        try timeline.forEachMoment { (time, changes, isNextPass) throws(ExitCode) in
            if isNextPass { state = timeline.initialState }
            for c in changes { state.apply(c.change) }
            // As a running fleet plans an update: beacons that stay keep their advertisers.
            let next = planner.plan(state.onAir, on: capabilities, keeping: plan)
            var what = changes.map(\.change.description).joined(separator: "; ")
            if isNextPass { what = "the next pass starts: the fleet as declared" + (what.isEmpty ? "" : "; " + what) }
            let before = plan
            try emit(section: "t=\(PlaybackOutput.clock(time))", title: "\(PlaybackOutput.clock(time)): \(what) — fleet on air: \(Self.names(state))",
                     perAdapter: { caps in
                         AdvertisingProgram.steps(from: Self.firstState(before, caps), to: Self.firstState(next, caps),
                                                  extended: planner.usesExtendedSets(caps))
                     }, listing: listing)
            plan = next
            return true
        }
        try emit(section: "teardown", title: "teardown: advertising off, sets removed",
                 perAdapter: { AdvertisingProgram.clean(extended: planner.usesExtendedSets($0)) }, listing: listing)
    }

    /// Prints one section per adapter, each command checked as a run would check it.
    private func emit(section: String, title: String, perAdapter: (ControllerCapabilities) -> [any HCICommand],
                      listing: DryRunListing) throws(ExitCode) {
        for caps in capabilities {
            let commands = perAdapter(caps)
            for command in commands {
                do throws(HCIValidationError) { try command.validate(for: caps.hciInfo) } catch {
                    throw CommandFailure.exit("\(caps.adapter): \(type(of: command).name) would be refused at \(section): \(error)")
                }
            }
            if json {
                for command in commands { LineOutput.out(listing.json(for: command, adapter: caps.adapter, section: section).text) }
            } else {
                LineOutput.out("#\n# == \(caps.adapter): \(title)")
                if commands.isEmpty { LineOutput.out("# (nothing to send)") }
                for command in commands { for line in listing.lines(for: command) { LineOutput.out(line) } }
            }
        }
    }

    /// What `plan` puts on air on the adapter `caps` in its first turn.
    static func firstState(_ plan: FleetPlan, _ caps: ControllerCapabilities) -> AdvertisingState {
        plan.adapters.first { $0.capabilities.adapter == caps.adapter }.map { AdvertisingProgram.states(of: $0)[0] } ?? [:]
    }

    static func names(_ state: ScenarioState) -> String {
        let names = state.onAir.map(\.name)
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }
}
