// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import BeaconJSON
import BeaconProfiles

/// Times and passes of a scenario as every front end writes them: `35 s`, `1.5 s`; `one pass of
/// 20 s`, `loops every 20 s until stopped`.
public enum ScenarioText {
    /// Scenario time, to the millisecond: `35 s`, `1.5 s`.
    public static func clock(_ seconds: Double) -> String {
        NumberText.string(seconds, places: 3) + " s"
    }

    /// How often the scenario plays: once, `n` times, or until stopped.
    public static func passes(_ s: Scenario) -> String {
        switch s.passes {
        case nil: "loops every \(clock(s.duration)) until stopped"
        case 1?: "one pass of \(clock(s.duration))"
        case let n?: "\(n) passes of \(clock(s.duration))"
        }
    }

    /// The step a play waits for: `next at 6 s: pass 2 starts`.
    public static func next(_ step: ScenarioTimeline.PlayStep) -> String {
        "next at \(clock(step.time)): \(step)"
    }
}

extension ScenarioCommandListing {
    /// A scenario's dry run, line by line to `emit` (the CLI's `play --dry-run`): as text, the
    /// timeline as comments, then under each step (``title(_:)``) the commands it sends, as
    /// BeaconEmulator's `DryRunListing` prints them; as JSON, one object per command, its section the step's
    /// ``key(_:)``. Opens nothing.
    ///
    /// - Throws: the first command an assumed controller would refuse (its ``Refusal/description``
    ///   says where); what was emitted before it stands.
    public static func list(_ timeline: ScenarioTimeline, planner: FleetPlanner, capabilities: [ControllerCapabilities],
                            hcitoolAdapter: String, json: Bool, emit: (String) -> Void) throws(Refusal) {
        let scenario = timeline.scenario
        let listing = DryRunListing(hcitoolAdapter: hcitoolAdapter)
        if !json {
            emit("# dry run: no adapter is opened, nothing is sent")
            let fleet = scenario.fleet.file == scenario.file ? "its own fleet" : scenario.fleet.file
            emit("# scenario \(scenario.file) over \(fleet): \(ScenarioText.passes(scenario))")
            emit("# timeline (each pass starts from the fleet as declared):")
            for c in timeline.pass {
                emit("#   \(ScenarioText.clock(c.time))  \(c.change)  (\(c.location))")
            }
        }
        try walk(timeline, planner: planner, capabilities: capabilities) { step in
            let adapter = step.capabilities.adapter.text
            if json {
                for command in step.commands {
                    emit(listing.json(for: command, adapter: adapter, section: key(step.step)).text)
                }
            } else {
                emit("#\n# == \(adapter): \(title(step))")
                if step.commands.isEmpty { emit("# (nothing to send)") }
                for command in step.commands { listing.lines(for: command).forEach(emit) }
            }
        }
    }

    /// The section's key: `start`, `t=2 s`, `teardown`.
    public static func key(_ step: Step) -> String {
        switch step {
        case .start: "start"
        case .moment(let time, _, _): "t=\(ScenarioText.clock(time))"
        case .teardown: "teardown"
        }
    }

    /// The section's heading: when, what changes and what is on air after it.
    public static func title(_ listing: Listing) -> String {
        let onAir = listing.onAir.isEmpty ? "nothing" : listing.onAir.joined(separator: ", ")
        switch listing.step {
        case .start:
            return "start (0 s): fleet on air: \(onAir)"
        case .moment(let time, let changes, let isNextPass):
            var what = changes.map(\.description).joined(separator: "; ")
            if isNextPass { what = "the next pass starts: the fleet as declared" + (what.isEmpty ? "" : "; " + what) }
            return "\(ScenarioText.clock(time)): \(what) — fleet on air: \(onAir)"
        case .teardown:
            return "teardown: advertising off, sets removed"
        }
    }
}

extension ScenarioCommandListing.Refusal: CustomStringConvertible {
    /// `virtual: LE Set … would be refused at t=2 s: …`.
    public var description: String {
        "\(refusal.adapter): \(refusal.command) would be refused at \(ScenarioCommandListing.key(step)): \(refusal.error)"
    }
}
