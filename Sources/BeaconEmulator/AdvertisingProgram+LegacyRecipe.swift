// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconProfiles
import HCI

extension AdvertisingProgram {
    /// The commands that make a legacy controller advertise `beacon` alone, from scratch: exactly
    /// the preamble and setup of a run on an assumed Bluetooth 4.2 legacy controller (what
    /// `encode --format hcitool` prints and `advertise --legacy --dry-run` lists), because both
    /// come from the same plan:
    ///
    /// 1. LE Set Advertising Enable `00`: parameters and the random address may not change while
    ///    advertising is on, so the recipe first turns it off; harmless when it is already off.
    /// 2. LE Set Random Address, when the beacon has its own address.
    /// 3. LE Set Advertising Parameters: ADV_NONCONN_IND, the beacon's interval, channels 37–39.
    /// 4. LE Set Advertising Data.
    /// 5. LE Set Advertising Enable `01`.
    public static func legacyRecipe(for beacon: BeaconProfile) -> [any HCICommand] {
        let controller = ControllerCapabilities.assumedLegacy(adapter: "recipe")
        let plan = FleetPlanner(forceLegacy: true).plan([beacon], on: [controller])
        let program = AdvertisingProgram(plan: plan.adapters[0])
        return program.preamble + program.setup
    }
}
