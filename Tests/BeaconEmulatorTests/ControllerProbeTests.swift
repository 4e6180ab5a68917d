// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconEmulator
import HCI
import HCITransport

@Suite struct ControllerProbeTests {
    @Test func probesVersionFeaturesAndSets() async throws {
        let c = try AdapterConnection.open(.virtual(options: ["sets": "6", "version": "5.2"]))
        let caps = try await ControllerProbe.probe(c.hci, reset: true)
        #expect(caps.hciVersion == HCIVersion(rawValue: 0x0B))
        #expect(caps.hasExtendedAdvertising)
        #expect(caps.advertisingSets == 6)
        #expect(caps.maximumDataLength == 1650)
        #expect(caps.txPowerRange != nil)
        c.hci.close()
    }

    @Test func legacyOnlyControllerIsDetectedFromFeatureBit12() async throws {
        // Version 5.4 but without the feature bit: the HCI version must not be taken as proof.
        let c = try AdapterConnection.open(.virtual(options: ["version": "5.4", "extended": "no"]))
        let caps = try await ControllerProbe.probe(c.hci, reset: true)
        #expect(caps.hciVersion == HCIVersion(rawValue: 0x0D))
        #expect(!caps.hasExtendedAdvertising)
        #expect(caps.advertisingSets == 0)
        c.hci.close()
    }

    /// A controller driven with legacy commands since its last reset refuses every extended one
    /// (§3.1.1); probing without reset (the shared kernel socket) must then plan legacy, not fail.
    @Test func controllerInLegacyModeSinceResetProbesAsLegacy() async throws {
        let c = try AdapterConnection.open(.virtual(options: [:]))
        try await c.hci.send(HCIReset())
        try await c.hci.send(LESetAdvertisingEnable(false))
        let caps = try await ControllerProbe.probe(c.hci, reset: false)
        #expect(!caps.hasExtendedAdvertising)
        let plan = FleetPlanner().plan(beacons(2), on: [caps])
        #expect(plan.adapters[0].mode == .legacy)
        // With a reset, the same controller offers its sets again.
        #expect(try await ControllerProbe.probe(c.hci, reset: true).hasExtendedAdvertising)
        c.hci.close()
    }
}
