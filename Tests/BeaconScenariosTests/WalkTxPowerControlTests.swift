// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconScenarios
import Testing

/// Whether a walk may lower the TX power with distance, and within which range, from the
/// controllers alone.
struct WalkTxPowerControlTests {
    static func extended(_ name: AdapterName, _ range: ClosedRange<Int8>?) -> ControllerCapabilities {
        var caps = ControllerCapabilities.assumedExtended(adapter: name, sets: 16)
        caps.txPowerRange = range
        return caps
    }

    @Test func theRangeIsWhatEveryControllerTakesAtMost20dBm() {
        let control = WalkModel.TxPowerControl(controllers: [Self.extended("a", -40...10), Self.extended("b", -20...30)], planner: FleetPlanner())
        #expect(control == WalkModel.TxPowerControl(reference: 10, minimum: -20))
        #expect(WalkModel.TxPowerControl(controllers: [Self.extended("a", -127...40)], planner: FleetPlanner())?.reference == 20)
    }

    @Test func noControlWithoutExtendedSetsAKnownRangeOrAnOverlap() {
        #expect(WalkModel.TxPowerControl(controllers: [], planner: FleetPlanner()) == nil)
        #expect(WalkModel.TxPowerControl(controllers: [Self.extended("a", -40...10)], planner: FleetPlanner(forceLegacy: true)) == nil)
        #expect(WalkModel.TxPowerControl(controllers: [Self.extended("a", -40...10), Self.extended("b", nil)], planner: FleetPlanner()) == nil)
        #expect(WalkModel.TxPowerControl(controllers: [Self.extended("a", -40 ... -20), Self.extended("b", -10...10)], planner: FleetPlanner()) == nil)
        #expect(WalkModel.TxPowerControl(controllers: [.assumedLegacy(adapter: "hci0")], planner: FleetPlanner()) == nil)
    }
}
