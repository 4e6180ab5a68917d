// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import Testing

/// The legacy recipe for one beacon: what a legacy run's preamble and setup send.
@Suite struct LegacyRecipeTests {
    @Test func fiveCommandsTurnOffThenSetUpAndEnable() throws {
        let beacon = beacons(1, interval: 250)[0]
        let recipe = AdvertisingProgram.legacyRecipe(for: beacon)
        #expect(names(recipe) == [
            "LE Set Advertising Enable", "LE Set Random Address", "LE Set Advertising Parameters",
            "LE Set Advertising Data", "LE Set Advertising Enable",
        ])
        #expect((recipe[0] as? LESetAdvertisingEnable)?.isEnabled == false)
        #expect((recipe[1] as? LESetRandomAddress)?.address == beacon.address)
        let parameters = try #require(recipe[2] as? LESetAdvertisingParameters)
        #expect(parameters.intervalMin == 400 && parameters.intervalMax == 400)  // 250 ms in 0.625 ms units
        #expect((recipe[3] as? LESetAdvertisingData)?.data == beacon.advertisingData)
        #expect((recipe[4] as? LESetAdvertisingEnable)?.isEnabled == true)
    }

    /// The same commands a legacy run on an assumed legacy controller starts with.
    @Test func isTheLegacyRunsStart() {
        let beacon = beacons(1)[0]
        let plan = FleetPlanner(forceLegacy: true).plan([beacon], on: [.assumedLegacy(adapter: "hci0")])
        let program = AdvertisingProgram(plan: plan.adapters[0])
        let recipe = AdvertisingProgram.legacyRecipe(for: beacon)
        #expect(recipe.map(\.h4Bytes) == (program.preamble + program.setup).map(\.h4Bytes))
    }
}
