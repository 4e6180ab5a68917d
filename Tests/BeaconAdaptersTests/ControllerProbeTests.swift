// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import HCI
import HCITransport

@Suite struct ControllerProbeTests {
    @Test func probesVersionFeaturesAndSets() async throws {
        let c = try AdapterConnection.open(.virtual(options: ["sets": "6", "version": "5.2"]))
        let caps = try await ControllerProbe.probe(c.hci!, reset: true)
        #expect(caps.hciVersion == HCIVersion(rawValue: 0x0B))
        #expect(caps.hasExtendedAdvertising)
        #expect(caps.advertisingSets == 6)
        #expect(caps.maximumDataLength == 1650)
        #expect(caps.txPowerRange != nil)
        c.close()
    }

    @Test func legacyOnlyControllerIsDetectedFromFeatureBit12() async throws {
        // Version 5.4 but without the feature bit: the HCI version must not be taken as proof.
        let c = try AdapterConnection.open(.virtual(options: ["version": "5.4", "extended": "no"]))
        let caps = try await ControllerProbe.probe(c.hci!, reset: true)
        #expect(caps.hciVersion == HCIVersion(rawValue: 0x0D))
        #expect(!caps.hasExtendedAdvertising)
        #expect(caps.advertisingSets == 0)
        c.close()
    }
}
