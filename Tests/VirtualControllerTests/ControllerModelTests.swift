// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import KnownControllers
import Testing
@testable import VirtualController

/// The catalogue of real controllers (issue 36) and the virtual controller imitating them
/// (`-i virtual:model=NAME`, `quirks=`, `ncmd=`, `latency=`).
@Suite struct ControllerModelTests {
    @Test func everyRecognisableModelIsRecognisedFromWhatItReports() {
        for model in ControllerModel.catalogue {
            let found = ControllerModel.recognise(manufacturer: model.manufacturer, hciVersion: model.hciVersion, lmpSubversion: model.lmpSubversion)
            if model.recognition == nil {
                #expect(found?.id != model.id, "\(model.id) cannot be told from what it reports")
            } else {
                #expect(found?.id == model.id, "\(model.id) recognised as \(found?.id ?? "nothing")")
            }
            #expect(!model.sources.isEmpty, "\(model.id) cites a source")
        }
        // A genuine CSR8510 and a clone share the subversion; the claimed version tells them apart
        // (btusb_setup_csr's rule).
        #expect(ControllerModel.recognise(manufacturer: 10, hciVersion: .v4_0, lmpSubversion: 0x22BB)?.id == "csr8510")
        #expect(ControllerModel.recognise(manufacturer: 10, hciVersion: .v5_0, lmpSubversion: 0x22BB)?.id == "csr8510-clone")
        // The built-in controller's own identity (company 0xFFFF) is nobody's.
        #expect(ControllerModel.recognise(manufacturer: 0xFFFF, hciVersion: .v5_4, lmpSubversion: 0) == nil)
        // An Intel radio with another subversion is not called an AX201.
        #expect(ControllerModel.recognise(manufacturer: 2, hciVersion: .v5_1, lmpSubversion: 0x3597) == nil)
    }

    @Test func quirksRoundTripAndBadOnesSayWhatWouldParse() throws {
        for text in ["unknown:le-set-extended-advertising-data", "no-reply:le-read-transmit-power", "interval-floor:100", "unknown:read-bd-addr"] {
            #expect(try ControllerQuirk(parsing: text).description == text)
        }
        #expect(try ControllerQuirk(parsing: "unknown:0x203D") == .unknown(LEClearAdvertisingSets.opcode))
        #expect(throws: ControllerQuirkError.unknownCommand("unknown:le-set-adv-data", command: "le-set-adv-data")) { try ControllerQuirk(parsing: "unknown:le-set-adv-data") }
        #expect(throws: ControllerQuirkError.malformed("late:reset")) { try ControllerQuirk(parsing: "late:reset") }
        #expect(throws: ControllerQuirkError.invalidFloor("interval-floor:5")) { try ControllerQuirk(parsing: "interval-floor:5") }
        #expect(throws: VirtualControllerConfigurationError.self) { try VirtualController.Configuration(options: ["model": "intel-ax999"]) }
        #expect(throws: VirtualControllerConfigurationError.self) { try VirtualController.Configuration(options: ["quirks": "unknown:nothing"]) }
        #expect(throws: VirtualControllerConfigurationError.self) { try VirtualController.Configuration(options: ["ncmd": "0"]) }
        #expect(throws: VirtualControllerConfigurationError.self) { try VirtualController.Configuration(options: ["latency": "500"]) }
    }

    @Test func aModelReportsTheCatalogueValues() throws {
        let bench = try Bench(options: ["model": "csr8510-clone"])
        // HCI 5.0, revision 0x3120, LMP 5.0, company 10, LMP subversion 0x22BB (little-endian).
        #expect(bench.reply(HCIReadLocalVersionInformation())
            == commandComplete(0x1001, [0x00, 0x09, 0x20, 0x31, 0x09, 0x0A, 0x00, 0xBB, 0x22]))
        // No LE Extended Advertising.
        #expect(bench.reply(LEReadLocalSupportedFeatures()) == commandComplete(0x2003, [0x00] + [UInt8](repeating: 0, count: 8)))
        let zephyr = try Bench(options: ["model": "nrf52840-zephyr-hci-usb"])
        #expect(zephyr.reply(HCIReadBDADDR()) == commandComplete(0x1009, [0x00, 0, 0, 0, 0, 0, 0]))
        #expect(zephyr.reply(LEReadNumberOfSupportedAdvertisingSets()) == commandComplete(0x203B, [0x00, 0x01]))
        // Options after the model change what they name.
        let more = try Bench(options: ["model": "nrf52840-zephyr-hci-usb", "sets": "4"])
        #expect(more.reply(LEReadNumberOfSupportedAdvertisingSets()) == commandComplete(0x203B, [0x00, 0x04]))
    }

    @Test func aCloneKeepsTheFloorItsClaimedVersionLifted() throws {
        let bench = try Bench(options: ["model": "csr8510-clone"])
        func parameters(_ ms: Double) -> LESetAdvertisingParameters {
            LESetAdvertisingParameters(intervalMin: AdvertisingInterval(milliseconds: ms), intervalMax: AdvertisingInterval(milliseconds: ms),
                                       advertisingType: .nonConnectableUndirected)
        }
        #expect(bench.status(parameters(20)) == .invalidCommandParameters)
        #expect(bench.status(parameters(99.375)) == .invalidCommandParameters)
        #expect(bench.status(parameters(100)) == .success)
        // The same controller without the quirk: 5.0's 20 ms.
        let honest = try Bench(options: ["version": "5.0", "legacy": "yes"])
        #expect(honest.status(parameters(20)) == .success)
    }

    @Test func refusedAndUnansweredCommandsAsRealFirmwareHasThem() throws {
        let bench = try Bench(options: ["model": "intel-ax211-degraded"])
        // Listed in Read Local Supported Commands (octet 36 bit 2) but refused.
        let mask = bench.reply(HCIReadLocalSupportedCommands())
        #expect(mask.count == 71 && mask[7 + 36] & 0b0000_0100 != 0)
        bench.succeed(LESetExtendedAdvertisingParameters(handle: 0, intervalMin: 0x00A0, intervalMax: 0x00A0))
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 0, operation: .complete, data: beaconData())) == .unknownCommand)
        // Two commands may be outstanding: Num_HCI_Command_Packets 2.
        #expect(bench.reply(HCIReset())[3] == 2)

        let silent = try Bench(options: ["quirks": "no-reply:le-read-transmit-power"])
        #expect(silent.controller.exchange(LEReadTransmitPower().h4Bytes).isEmpty)
        #expect(silent.reply(HCIReset()) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
    }

    @Test func aReplyComesALatencyLateAndCommandsQueueBehindEachOther() throws {
        let clock = ManualClock()
        let controller = try VirtualController(options: ["latency": "2"], clock: clock)
        controller.submit(HCIReset().h4Bytes)
        controller.submit(HCIReadBDADDR().h4Bytes)
        #expect(controller.takeEvent() == nil)
        #expect(controller.timeUntilOwnEvent == .milliseconds(2))
        clock.advance(by: .milliseconds(2))
        #expect(controller.takeEvent()?[4...5] == [0x03, 0x0C])
        // The second waited for the first: due at 4 ms.
        #expect(controller.takeEvent() == nil)
        #expect(controller.timeUntilOwnEvent == .milliseconds(2))
        clock.advance(by: .milliseconds(2))
        #expect(controller.takeEvent()?[4...5] == [0x09, 0x10])
        #expect(controller.timeUntilOwnEvent == nil)
    }
}
