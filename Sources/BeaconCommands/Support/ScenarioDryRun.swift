// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios

/// `play --dry-run`: the scenario's timeline, and under each step the HCI commands it sends
/// (``ScenarioCommandListing``), for assumed controllers. Opens nothing.
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
        do throws(ScenarioCommandListing.Refusal) {
            try ScenarioCommandListing.walk(timeline, planner: planner, capabilities: capabilities) { step in
                let adapter = step.capabilities.adapter.text
                if json {
                    for command in step.commands {
                        LineOutput.out(listing.json(for: command, adapter: adapter, section: Self.key(step.step)).text)
                    }
                } else {
                    LineOutput.out("#\n# == \(adapter): \(Self.title(step))")
                    if step.commands.isEmpty { LineOutput.out("# (nothing to send)") }
                    for command in step.commands { for line in listing.lines(for: command) { LineOutput.out(line) } }
                }
            }
        } catch {
            let refusal = error.refusal
            throw CommandFailure.exit("\(refusal.adapter): \(refusal.command) would be refused at \(Self.key(error.step)): \(refusal.error)")
        }
    }

    /// The section's key: `start`, `t=2 s`, `teardown`.
    static func key(_ step: ScenarioCommandListing.Step) -> String {
        switch step {
        case .start: "start"
        case .moment(let time, _, _): "t=\(PlaybackOutput.clock(time))"
        case .teardown: "teardown"
        }
    }

    /// The section's heading: when, what changes and what is on air after it.
    static func title(_ listing: ScenarioCommandListing.Listing) -> String {
        let onAir = listing.onAir.isEmpty ? "nothing" : listing.onAir.joined(separator: ", ")
        switch listing.step {
        case .start:
            return "start (0 s): fleet on air: \(onAir)"
        case .moment(let time, let changes, let isNextPass):
            var what = changes.map(\.description).joined(separator: "; ")
            if isNextPass { what = "the next pass starts: the fleet as declared" + (what.isEmpty ? "" : "; " + what) }
            return "\(PlaybackOutput.clock(time)): \(what) — fleet on air: \(onAir)"
        case .teardown:
            return "teardown: advertising off, sets removed"
        }
    }
}
