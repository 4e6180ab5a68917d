// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconEmulator
import HCI
import HCITransport

/// What the planner makes of a probe (the probe itself: BeaconAdaptersTests/ControllerProbeTests).
@Suite struct ControllerProbePlanningTests {
    /// A controller driven with legacy commands since its last reset refuses every extended one
    /// (§3.1.1); probing without reset (the shared kernel socket) must then plan legacy, not fail.
    @Test func controllerInLegacyModeSinceResetProbesAsLegacy() async throws {
        let c = try AdapterConnection.open(.virtual(options: [:]))
        try await c.hci!.send(HCIReset())
        try await c.hci!.send(LESetAdvertisingEnable(false))
        let caps = try await ControllerProbe.probe(c.hci!, reset: false)
        #expect(!caps.hasExtendedAdvertising)
        let plan = FleetPlanner().plan(beacons(2), on: [caps])
        #expect(plan.adapters[0].mode == .legacy)
        // With a reset, the same controller offers its sets again.
        #expect(try await ControllerProbe.probe(c.hci!, reset: true).hasExtendedAdvertising)
        c.close()
    }
}
