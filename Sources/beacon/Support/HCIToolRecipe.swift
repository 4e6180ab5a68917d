// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

/// The `hcitool cmd` lines that make a BlueZ box advertise one beacon with the legacy LE
/// advertising commands: exactly what `advertise --legacy --dry-run` lists for the same beacon
/// (its preamble and setup), because both come from the emulator's plan for a legacy controller:
///
/// 1. LE Set Advertising Enable `00`: parameters and the random address may not change while
///    advertising is on, so the recipe first turns it off; harmless when it is already off.
/// 2. LE Set Random Address, when the beacon has its own address.
/// 3. LE Set Advertising Parameters: ADV_NONCONN_IND, the beacon's interval, channels 37–39.
/// 4. LE Set Advertising Data.
/// 5. LE Set Advertising Enable `01`.
///
/// A beacon given on the command line without `--address` has the address derived from its
/// identity, as `advertise --uuid …` gives it: the same five lines.
struct HCIToolRecipe {
    /// The adapter name passed to `hcitool -i`.
    var adapter: String

    func lines(for transmission: BeaconTransmission) -> [String] {
        Self.commands(for: transmission).map { HCIToolLine.text($0, adapter: adapter) }
    }

    static func commands(for transmission: BeaconTransmission) -> [any HCICommand] {
        let controller = ControllerCapabilities.assumedLegacy(adapter: "hcitool")
        let plan = FleetPlanner(forceLegacy: true).plan([transmission.profile], on: [controller])
        let program = AdvertisingProgram(plan: plan.adapters[0])
        return program.preamble + program.setup
    }
}
