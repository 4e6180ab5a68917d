// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing

/// Command Complete events (code 0x0E) with each typed return parameter, bytes written by hand
/// from Core Vol 4 Part E §7.7.14 and the command's section.
@Suite("Command Complete return parameters")
struct CommandCompleteTests {
    /// Decodes `hex` (event code onwards) as a Command Complete and re-encodes it.
    func complete(_ hex: String) throws -> HCICommandCompleteEvent {
        let event = try HCIEvent(bytes: bytes(hex))
        guard case let .commandComplete(complete) = event else {
            Issue.record("not a Command Complete: \(event)")
            throw HCIDecodingError.unexpectedEvent(expected: "Command Complete", actualCode: event.packet.code)
        }
        #expect(event.packet.bytes == bytes(hex), "re-encoding changes the bytes")
        return complete
    }

    @Test func readLocalVersionInformation() throws {
        // > HCI Event: Command Complete (0x0e) plen 12 — Read Local Version Information (0x04|0x0001) ncmd 1
        //   Status: Success, HCI version: Bluetooth 5.0 (0x09) - Revision 4660 (0x1234),
        //   LMP version: Bluetooth 5.0 (0x09) - Subversion 22136 (0x5678), Manufacturer: Intel Corp. (2)
        let event = try complete("0E 0C 01 01 10 00 09 34 12 09 02 00 78 56")
        let info = try event.result(for: HCIReadLocalVersionInformation.self)
        #expect(info == .init(hciVersion: .v5_0, hciRevision: 0x1234, lmpVersion: .v5_0, manufacturer: 2, lmpSubversion: 0x5678))
        #expect(HCICommandCompleteEvent(for: HCIReadLocalVersionInformation.self, returnParameters: info) == event)
    }

    @Test func readLocalSupportedCommands() throws {
        // > HCI Event: Command Complete (0x0e) plen 68 — Read Local Supported Commands (0x04|0x0002) ncmd 1
        //   Status: Success, Commands: octet 0 = 0x20, octet 5 = 0x80, octet 63 = 0x01
        let octets = "20 00 00 00 00 80" + String(repeating: " 00", count: 57) + " 01"
        let event = try complete("0E 44 01 02 10 00 " + octets)
        let commands = try event.result(for: HCIReadLocalSupportedCommands.self)
        #expect(commands.octets == bytes(octets))
        #expect(commands.supports(octet: 0, bit: 5))
        #expect(commands.supports(octet: 5, bit: 7))
        #expect(commands.supports(octet: 63, bit: 0))
        #expect(!commands.supports(octet: 0, bit: 4))
    }

    @Test func readBDADDR() throws {
        // > HCI Event: Command Complete (0x0e) plen 10 — Read BD ADDR (0x04|0x0009) ncmd 1, Address: C0:11:22:33:44:55
        let event = try complete("0E 0A 01 09 10 00 55 44 33 22 11 C0")
        #expect(try event.result(for: HCIReadBDADDR.self).address.description == "C0:11:22:33:44:55")
    }

    @Test func leReadLocalSupportedFeatures() throws {
        // > HCI Event: Command Complete (0x0e) plen 12 — LE Read Local Supported Features (0x08|0x0003) ncmd 1
        //   Features: 0xff 0x1f 0x00 … (bits 0–12: … LE 2M PHY, LE Coded PHY, LE Extended Advertising)
        let five = try complete("0E 0C 01 03 20 00 FF 1F 00 00 00 00 00 00").result(for: LEReadLocalSupportedFeatures.self)
        #expect(five.features.contains(.leExtendedAdvertising))
        #expect(five.features.contains([.le2MPHY, .leCodedPHY]))
        #expect(five.features.rawValue == 0x1FFF)
        // A 4.2 controller: bits 0–7 only.
        let old = try complete("0E 0C 01 03 20 00 FF 00 00 00 00 00 00 00").result(for: LEReadLocalSupportedFeatures.self)
        #expect(!old.features.contains(.leExtendedAdvertising))
    }

    @Test func txPowerReplies() throws {
        // > HCI Event: Command Complete (0x0e) plen 5 — LE Read Advertising Channel TX Power (0x08|0x0007), TX power: -9 dBm (0xf7)
        #expect(try complete("0E 05 01 07 20 00 F7").result(for: LEReadAdvertisingPhysicalChannelTxPower.self).txPowerLevel == -9)
        // > HCI Event: Command Complete (0x0e) plen 5 — LE Set Extended Advertising Parameters (0x08|0x0036), TX power (selected): -7 dBm (0xf9)
        #expect(try complete("0E 05 01 36 20 00 F9").result(for: LESetExtendedAdvertisingParameters.self).selectedTxPower == -7)
        // > HCI Event: Command Complete (0x0e) plen 6 — LE Read Transmit Power (0x08|0x004b), Min TX power: -30 dBm, Max TX power: 10 dBm
        let range = try complete("0E 06 01 4B 20 00 E2 0A").result(for: LEReadTransmitPower.self)
        #expect(range == .init(minimum: -30, maximum: 10))
    }

    @Test func advertisingSetLimits() throws {
        // > HCI Event: Command Complete (0x0e) plen 6 — LE Read Maximum Advertising Data Length (0x08|0x003a), Max length: 1650
        #expect(try complete("0E 06 01 3A 20 00 72 06").result(for: LEReadMaximumAdvertisingDataLength.self).maximumLength == 1650)
        // > HCI Event: Command Complete (0x0e) plen 5 — LE Read Number of Supported Advertising Sets (0x08|0x003b), Num supported advertising sets: 16
        #expect(try complete("0E 05 01 3B 20 00 10").result(for: LEReadNumberOfSupportedAdvertisingSets.self).numberOfSets == 16)
    }

    @Test func statusOnlyReplies() throws {
        // > HCI Event: Command Complete (0x0e) plen 4 — Reset (0x03|0x0003) ncmd 1, Status: Success (0x00)
        let reset = try complete("0E 04 01 03 0C 00")
        #expect(reset.status == .success)
        #expect(try reset.result(for: HCIReset.self) == HCINoReturnParameters())
        #expect(HCICommandCompleteEvent(for: HCIReset.self, returnParameters: .init()).packet.bytes == bytes("0E 04 01 03 0C 00"))
    }

    @Test func failureStatusIsATypedErrorWithAnExplanation() throws {
        // > HCI Event: Command Complete (0x0e) plen 4 — LE Set Extended Advertising Parameters (0x08|0x0036) ncmd 1,
        //   Status: Unknown HCI Command (0x01)
        let event = try complete("0E 04 01 36 20 01")
        #expect(event == HCICommandCompleteEvent(for: LESetExtendedAdvertisingParameters.self, status: .unknownCommand))
        let error = #expect(throws: HCICommandError.self) { try event.result(for: LESetExtendedAdvertisingParameters.self) }
        #expect(error == .failed(command: "LE Set Extended Advertising Parameters", opcode: HCIOpcode(rawValue: 0x2036), status: .unknownCommand))
        #expect(error?.description.contains("too old") == true)
        // A reply for another command is not mistaken for this one's.
        #expect(throws: HCICommandError.unexpectedOpcode(expected: HCIReset.opcode, actual: LESetExtendedAdvertisingParameters.opcode)) {
            try event.result(for: HCIReset.self)
        }
        // Success but the return parameters are cut short.
        let short = try complete("0E 05 01 4B 20 00 E2")
        #expect(throws: HCICommandError.malformedReply(command: "LE Read Transmit Power",
                                                        .truncated(field: "Max_TX_Power", needed: 1, available: 0))) {
            try short.result(for: LEReadTransmitPower.self)
        }
    }

    @Test func noOperationCreditsHaveNoStatus() throws {
        // > HCI Event: Command Complete (0x0e) plen 3 — NOP (0x00|0x0000) ncmd 1
        let event = try complete("0E 03 01 00 00")
        #expect(event.opcode == .noOperation)
        #expect(event.status == nil)
    }
}

@Suite("Supported_Commands bit positions")
struct SupportedCommandBitTests {
    @Test func extendedAdvertisingBits() {
        // Core Vol 4 Part E §6.27: octet 36 bit 2 is LE Set Extended Advertising Parameters,
        // octet 25 bit 5 LE Set Advertising Parameters, octet 5 bit 7 Reset.
        var mask = HCIReadLocalSupportedCommands.ReturnParameters(octets: [])
        #expect(mask.supports(LESetExtendedAdvertisingParameters.self) == false)
        mask.insert(LESetExtendedAdvertisingParameters.self)
        #expect(mask.octets[36] == 0b0000_0100)
        #expect(mask.supports(LESetExtendedAdvertisingParameters.self) == true)
        mask.insert(LESetAdvertisingParameters.self)
        mask.insert(HCIReset.self)
        #expect(mask.octets[25] == 0b0010_0000)
        #expect(mask.octets[5] == 0b1000_0000)
        #expect(mask.supports(HCIReadLocalSupportedCommands.self) == true)
    }

    @Test func everyCommandButReadLocalSupportedCommandsHasADistinctBit() {
        var seen: Set<Int> = []
        for command in HCICommandRegistry.all where command != HCIReadLocalSupportedCommands.self {
            let position = HCIReadLocalSupportedCommands.ReturnParameters.position(of: command.opcode)
            #expect(position != nil, "\(command.name) has no bit")
            if let position { #expect(seen.insert(position.octet * 8 + position.bit).inserted) }
        }
        #expect(seen.count == 26)
    }
}
