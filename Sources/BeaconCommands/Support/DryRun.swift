// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import BeaconProfiles

/// `advertise --dry-run`: plans for assumed controllers and prints the commands (BeaconEmulator's
/// `DryRunListing`); opens nothing.
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
        do throws(CommandRefusal) {
            try DryRunListing(hcitoolAdapter: controller.hcitoolAdapter).list(plan, summary: PlanReport.summary(plan), json: json) { LineOutput.out($0) }
        } catch {
            throw CommandFailure.exit("\(error)")
        }
    }
}

extension PlanReport {
    /// The plan's summary, pointing a large fleet's reader to this command line's flags for the table.
    static func summary(_ plan: FleetPlan, verbose: Bool = false) -> [String] {
        summary(plan, verbose: verbose, tableOmitted: "the per-beacon table: --plan --verbose, or --json", namedBy: CommandLineTerms.name)
    }

    /// The plan as JSON, its terms named as this command line names them.
    static func json(_ plan: FleetPlan) -> JSONValue { json(plan, namedBy: CommandLineTerms.name) }
}
