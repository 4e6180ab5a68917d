// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

@Suite struct ConfigurationTests {
    @Test func defaults() throws {
        let c = try VirtualController.Configuration(options: [:])
        #expect(c == VirtualController.Configuration())
        #expect(c.hciVersion == .v5_4 && c.extendedAdvertising && c.advertisingSets == 16 && c.maximumAdvertisingDataLength == 1650)
        #expect(c.txPowerRange == -20...10)
    }

    @Test(arguments: [("4.2", UInt8(0x08)), ("5.0", 0x09), ("5", 0x09), ("5.4", 0x0D), ("0x09", 0x09), ("0x0D", 0x0D), ("4.0", 0x06)])
    func versions(text: String, raw: UInt8) throws {
        #expect(try VirtualController.Configuration(options: ["version": text]).hciVersion == HCIVersion(rawValue: raw))
    }

    @Test func options() throws {
        let c = try VirtualController.Configuration(options: [
            "sets": "4", "version": "5.0", "extended": "no", "address": "00:AA:BB:CC:DD:EE", "manufacturer": "0x000F",
            "maxdata": "251", "txpower": "-8..4", "advdelay": "yes", "seed": "42",
        ])
        #expect(c.advertisingSets == 4 && c.hciVersion == .v5_0 && !c.extendedAdvertising)
        #expect(c.publicAddress == BluetoothAddress(0x00_AA_BB_CC_DD_EE) && c.manufacturer == 0x000F)
        #expect(c.maximumAdvertisingDataLength == 251 && c.txPowerRange == -8...4 && c.advertisingDelay && c.seed == 42)
        // `legacy` (bare, as AdapterSpec passes it) turns extended advertising off.
        #expect(try !VirtualController.Configuration(options: ["legacy": "yes"]).extendedAdvertising)
        // 4.x has no extended advertising.
        #expect(try !VirtualController.Configuration(options: ["version": "4.2"]).extendedAdvertising)
    }

    @Test(arguments: [
        ["version": "3.0"], ["version": "5.9"], ["version": "0x20"], ["version": "five"], ["sets": "0"], ["sets": "241"],
        ["sets": "many"], ["extended": "maybe"], ["maxdata": "30"], ["maxdata": "1651"], ["txpower": "10..-20"],
        ["txpower": "-20..30"], ["address": "00:11:22"], ["colour": "blue"], ["version": "4.2", "extended": "yes"],
        ["extended": "yes", "legacy": "yes"],
    ])
    func badOptions(options: [String: String]) {
        #expect(throws: VirtualControllerConfigurationError.self) { try VirtualController.Configuration(options: options) }
    }

    @Test func messages() {
        #expect(throws: VirtualControllerConfigurationError.invalidValue(
            option: "version", value: "5.9",
            expected: "a Bluetooth version from 4.0 on, such as 4.2, 5.0 or 5.4, or its HCI_Version byte such as 0x09")) {
            try VirtualController.Configuration(options: ["version": "5.9"])
        }
        let error = VirtualControllerConfigurationError.unknownOption("colour", known: ["sets", "version"])
        #expect(error.description == "virtual controller: unknown option 'colour' (known: sets, version)")
    }

    /// What the options change is what the controller reports.
    @Test func reportedByController() throws {
        let bench = try Bench(options: ["sets": "4", "version": "5.0", "txpower": "-8..4", "maxdata": "251"])
        #expect(bench.reply(LEReadNumberOfSupportedAdvertisingSets()) == commandComplete(0x203B, [0x00, 0x04]))
        #expect(bench.reply(LEReadMaximumAdvertisingDataLength()) == commandComplete(0x203A, [0x00, 0xFB, 0x00]))
        #expect(bench.reply(LEReadTransmitPower()) == commandComplete(0x204B, [0x00, 0xF8, 0x04]))
        #expect(bench.reply(HCIReadLocalVersionInformation()) == commandComplete(0x1001, [0x00, 0x09, 0x00, 0x00, 0x09, 0xFF, 0xFF, 0x00, 0x00]))
    }
}
