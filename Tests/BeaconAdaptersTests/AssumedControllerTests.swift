// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCI
import HCITransport
import Testing
import VirtualController

/// The controllers a dry run assumes, opening nothing.
@Suite struct AssumedControllerTests {
    @Test func noAdapterNamedMeansTheFirstKernelAdapterWithSixteenSets() {
        let assumed = ControllerCapabilities.assumed(for: nil, legacy: false, sets: nil)
        #expect(assumed == [.assumedExtended(adapter: "hci0", sets: 16)])
        #expect(ControllerCapabilities.assumed(for: [.allKernel], legacy: false, sets: nil) == assumed)
    }

    @Test func setsAndLegacyAreAsTold() {
        #expect(ControllerCapabilities.assumed(for: [.kernel(id: 1)], legacy: false, sets: 3) == [.assumedExtended(adapter: "hci1", sets: 3)])
        let legacy = ControllerCapabilities.assumed(for: [.kernel(id: 0), .raw(id: 2)], legacy: true, sets: nil)
        #expect(legacy == [.assumedLegacy(adapter: "hci0"), .assumedLegacy(adapter: "raw:hci2")])
        #expect(legacy.allSatisfy { !$0.hasExtendedAdvertising && $0.maximumDataLength == 31 })
    }

    /// A virtual controller is assumed as its own configuration says, whatever the options.
    @Test func aVirtualControllerIsItsConfiguration() throws {
        let spec = AdapterSpec.virtual(options: ["sets": "6", "version": "5.2"])
        let assumed = try #require(ControllerCapabilities.assumed(for: [spec], legacy: true, sets: 2).first)
        #expect(assumed.adapter == AdapterName(spec))
        #expect(assumed.hasExtendedAdvertising && assumed.advertisingSets == 6 && assumed.hciVersion == HCIVersion(rawValue: 0x0B))
        let legacyOnly = try #require(ControllerCapabilities.assumed(for: [.virtual(options: ["extended": "no"])], legacy: false, sets: nil).first)
        #expect(!legacyOnly.hasExtendedAdvertising && legacyOnly.advertisingSets == 0 && legacyOnly.txPowerRange == nil)
    }

    /// What is assumed for a virtual controller is what probing it finds.
    @Test func theAssumptionIsWhatAProbeFinds() async throws {
        let options = ["sets": "5", "version": "5.3"]
        let assumed = ControllerCapabilities(virtual: try VirtualController.Configuration(options: options), adapter: "virtual")
        let connection = try AdapterConnection.open(.virtual(options: options))
        defer { connection.close() }
        let probed = try await ControllerProbe.probe(try #require(connection.hci), reset: true)
        #expect(assumed.advertisingSets == probed.advertisingSets && assumed.maximumDataLength == probed.maximumDataLength)
        #expect(assumed.hciVersion == probed.hciVersion && assumed.leFeatures.contains(.leExtendedAdvertising) == probed.hasExtendedAdvertising)
        #expect(assumed.txPowerRange == probed.txPowerRange && assumed.address == probed.address)
    }
}
