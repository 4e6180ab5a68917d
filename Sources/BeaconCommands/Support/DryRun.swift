// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

/// `advertise --dry-run`: plans for assumed controllers and prints the commands; opens nothing.
struct DryRun {
    var controller: ControllerOptions
    var planner: FleetPlanner
    var legacy: Bool
    var maxSets: Int?
    var json: Bool

    /// The controllers a run would find, assumed (``ControllerCapabilities/assumed(for:legacy:sets:)``):
    /// `--max-sets` sets, or a legacy controller with `--legacy`.
    func capabilities() -> [ControllerCapabilities] {
        ControllerCapabilities.assumed(for: controller.specs, legacy: legacy, sets: maxSets)
    }

    func print(_ beacons: [BeaconProfile]) throws(ExitCode) {
        let plan = planner.plan(beacons, on: capabilities())
        if !json {
            LineOutput.out("# dry run: no adapter is opened, nothing is sent")
            for line in PlanReport.summary(plan) { LineOutput.out("# " + line) }
        }
        for adapterPlan in plan.adapters {
            let caps = adapterPlan.capabilities
            let program = AdvertisingProgram(plan: adapterPlan)
            // What a real run would check before sending anything.
            do throws(CommandRefusal) { try CommandRefusal.check(program.allCommands, for: caps) } catch {
                throw CommandFailure.exit("\(error)")
            }
            let name = caps.adapter.text.hasPrefix("hci") ? caps.adapter.text : controller.hcitoolAdapter
            let listing = DryRunListing(hcitoolAdapter: name)
            for section in program.sections {
                if !json { LineOutput.out("#\n# == \(caps.adapter): \(section.title)") }
                for command in section.commands {
                    if json {
                        LineOutput.out(listing.json(for: command, adapter: caps.adapter.text, section: section.key).text)
                    } else {
                        for line in listing.lines(for: command) { LineOutput.out(line) }
                    }
                }
            }
        }
    }
}
