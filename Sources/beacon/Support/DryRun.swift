// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import HCITransport
import VirtualController

/// `advertise --dry-run`: plans for assumed controllers and prints the commands; opens nothing.
struct DryRun {
    var controller: ControllerOptions
    var planner: FleetPlanner
    var legacy: Bool
    var maxSets: Int?
    var json: Bool

    /// The controllers a run would find, assumed: the virtual controller's own configuration for
    /// `-i virtual:…`; otherwise a Bluetooth 5 controller with `--max-sets` sets (16 by
    /// default), or a Bluetooth 4.2 legacy one with `--legacy`.
    func capabilities() -> [ControllerCapabilities] {
        let specs = (controller.specs ?? [.kernel(id: 0)]).map { $0 == .allKernel ? AdapterSpec.kernel(id: 0) : $0 }
        return specs.map { spec in
            if case .virtual(let options) = spec, let configuration = try? VirtualController.Configuration(options: options) {
                return Self.capabilities(of: configuration, adapter: spec.description)
            }
            return legacy
                ? ControllerCapabilities.assumedLegacy(adapter: spec.description)
                : ControllerCapabilities.assumedExtended(adapter: spec.description, sets: maxSets ?? 16)
        }
    }

    /// What probing a virtual controller with `configuration` would find.
    static func capabilities(of configuration: VirtualController.Configuration, adapter: String) -> ControllerCapabilities {
        let extended = configuration.supportsExtendedAdvertising
        return ControllerCapabilities(
            adapter: adapter, hciVersion: configuration.hciVersion, lmpVersion: configuration.hciVersion,
            manufacturer: configuration.manufacturer, address: configuration.publicAddress,
            leFeatures: extended ? [.leExtendedAdvertising] : [],
            advertisingSets: extended ? configuration.advertisingSets : 0,
            maximumDataLength: extended ? configuration.maximumAdvertisingDataLength : 31,
            txPowerRange: extended ? configuration.txPowerRange : nil)
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
            for command in program.allCommands {
                do throws(HCIValidationError) { try command.validate(for: caps.hciInfo) } catch {
                    throw CommandFailure.exit("\(caps.adapter): \(type(of: command).name) would be refused: \(error)")
                }
            }
            let name = caps.adapter.hasPrefix("hci") ? caps.adapter : controller.hcitoolAdapter
            let listing = DryRunListing(hcitoolAdapter: name)
            for section in DryRunListing.sections(program) {
                if !json { LineOutput.out("#\n# == \(caps.adapter): \(section.title)") }
                for command in section.commands {
                    if json {
                        LineOutput.out(listing.json(for: command, adapter: caps.adapter, section: section.key).text)
                    } else {
                        for line in listing.lines(for: command) { LineOutput.out(line) }
                    }
                }
            }
        }
    }
}
