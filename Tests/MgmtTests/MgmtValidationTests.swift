// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Mgmt
import Testing

@Suite struct MgmtValidationTests {
    let iBeacon: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + [UInt8](repeating: 0xAB, count: 16) + [0, 1, 0, 1, 0xCC]

    @Test func instanceZeroAnd255AreRefused() {
        for instance: UInt8 in [0, 255] {
            #expect(throws: HCIValidationError.self) { try AddExtendedAdvertisingData(instance: instance, advertisingData: iBeacon).validate() }
            #expect(throws: HCIValidationError.self) { try AddAdvertising(instance: instance, advertisingData: iBeacon).validate() }
        }
        #expect(throws: Never.self) { try AddExtendedAdvertisingData(instance: 1, advertisingData: iBeacon).validate() }
        #expect(throws: HCIValidationError.self) { try RemoveAdvertising(instance: 255).validate() }
    }

    @Test func flagsStructureOnlyWhenTheKernelDoesNotManageFlags() {
        #expect(throws: Never.self) { try AddAdvertising(instance: 1, flags: [], advertisingData: iBeacon).validate() }
        for flags: MgmtAdvertisingFlags in [.discoverable, .limitedDiscoverable, .managedFlags] {
            #expect(throws: HCIValidationError.self) { try AddAdvertising(instance: 1, flags: flags, advertisingData: iBeacon).validate() }
        }
        // Never in a scan response.
        #expect(throws: HCIValidationError.self) { try AddAdvertising(instance: 1, advertisingData: [], scanResponse: [0x02, 0x01, 0x06]).validate() }
    }

    @Test func malformedOrTooLongDataIsRefused() {
        #expect(throws: HCIValidationError.self) { try AddExtendedAdvertisingData(instance: 1, advertisingData: [0x05, 0xFF, 0x4C]).validate() }
        #expect(throws: HCIValidationError.self) { try AddExtendedAdvertisingData(instance: 1, advertisingData: iBeacon + [0x01, 0x0A]).validate() }
    }

    @Test func intervalsAndTxPower() {
        func params(min: UInt32 = 0xA0, max: UInt32 = 0xA0, tx: Int8 = 0, flags: MgmtAdvertisingFlags = [.useIntervals]) -> AddExtendedAdvertisingParameters {
            AddExtendedAdvertisingParameters(instance: 1, flags: flags, minInterval: min, maxInterval: max, txPower: tx)
        }
        #expect(throws: Never.self) { try params().validate() }
        #expect(throws: HCIValidationError.self) { try params(min: 0x1F).validate() }
        #expect(throws: HCIValidationError.self) { try params(max: 0x100_0000).validate() }
        #expect(throws: HCIValidationError.self) { try params(min: 0xB0, max: 0xA0).validate() }
        #expect(throws: HCIValidationError.self) { try params(tx: 21).validate() }
        #expect(throws: HCIValidationError.self) { try params(flags: [.secondary1M, .secondaryCoded]).validate() }
    }
}
