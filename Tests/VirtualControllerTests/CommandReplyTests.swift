// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

/// Every implemented command answers a typical call with the exact bytes of Core Vol 4 Part E
/// §7.7.14 Command Complete: 04 0E len 01 opcode status return-parameters.
@Suite struct CommandReplyTests {
    @Test func informationalCommands() {
        let bench = Bench()
        #expect(bench.reply(HCIReset()) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        #expect(bench.reply(HCISetEventMask(.default)) == commandComplete(0x0C01, [0x00]))
        // Version 5.4 (0x0D), subversion 0, LMP 5.4, company 0xFFFF, LMP subversion 0.
        #expect(bench.reply(HCIReadLocalVersionInformation())
            == commandComplete(0x1001, [0x00, 0x0D, 0x00, 0x00, 0x0D, 0xFF, 0xFF, 0x00, 0x00]))
        // Public address 00:11:22:33:44:55 least-significant byte first.
        #expect(bench.reply(HCIReadBDADDR()) == commandComplete(0x1009, [0x00, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00]))
        #expect(bench.reply(LESetEventMask(.default)) == commandComplete(0x2001, [0x00]))
        // LE feature bit 12 (LE Extended Advertising) = octet 1, bit 4.
        #expect(bench.reply(LEReadLocalSupportedFeatures())
            == commandComplete(0x2003, [0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]))
        // −20…+10 dBm.
        #expect(bench.reply(LEReadTransmitPower()) == commandComplete(0x204B, [0x00, 0xEC, 0x0A]))
        #expect(bench.reply(LESetRandomAddress(staticAddress1)) == commandComplete(0x2005, [0x00]))
    }

    /// The Supported_Commands octets and bits of Core Vol 4 Part E §6.27 for what is implemented.
    @Test func supportedCommandsMask() {
        var octets = [UInt8](repeating: 0, count: 64)
        octets[5] = 0b1100_0000  // Set Event Mask (bit 6), Reset (bit 7)
        octets[14] = 0b0000_1000  // Read Local Version Information (bit 3)
        octets[15] = 0b0000_0010  // Read BD_ADDR (bit 1)
        octets[25] = 0b1111_0101  // LE Set Event Mask, LE Read Local Supported Features, LE Set Random Address, LE Set Advertising Parameters, LE Read Advertising Physical Channel Tx Power, LE Set Advertising Data
        octets[26] = 0b0000_1111  // LE Set Scan Response Data, LE Set Advertising Enable, LE Set Scan Parameters, LE Set Scan Enable
        octets[36] = 0b1111_1110  // Set Advertising Set Random Address, Extended Advertising Parameters/Data, Extended Scan Response Data, Extended Advertising Enable, Read Maximum Advertising Data Length, Read Number of Supported Advertising Sets
        octets[37] = 0b0110_0011  // Remove/Clear Advertising Set(s), Extended Scan Parameters/Enable
        octets[38] = 0b1000_0000  // LE Read Transmit Power
        #expect(Bench().reply(HCIReadLocalSupportedCommands()) == commandComplete(0x1002, [0x00] + octets))

        // Bluetooth 4.2 without extended advertising: octets 36–38 stay empty.
        var legacyOnly = octets
        legacyOnly[36] = 0
        legacyOnly[37] = 0
        legacyOnly[38] = 0
        let bench42 = Bench({ var c = VirtualController.Configuration(); c.hciVersion = .v4_2; c.extendedAdvertising = false; return c }())
        #expect(bench42.reply(HCIReadLocalSupportedCommands()) == commandComplete(0x1002, [0x00] + legacyOnly))
        #expect(bench42.reply(LEReadLocalSupportedFeatures()) == commandComplete(0x2003, [0x00] + [UInt8](repeating: 0, count: 8)))
    }

    @Test func legacyAdvertisingCommands() {
        let bench = Bench()
        #expect(bench.reply(LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0)) == commandComplete(0x2006, [0x00]))
        #expect(bench.reply(LEReadAdvertisingPhysicalChannelTxPower()) == commandComplete(0x2007, [0x00, 0x00]))
        #expect(bench.reply(LESetAdvertisingData(AdvertisingPayload(beaconData())!)) == commandComplete(0x2008, [0x00]))
        #expect(bench.reply(LESetScanResponseData(AdvertisingPayload())) == commandComplete(0x2009, [0x00]))
        #expect(bench.reply(LESetAdvertisingEnable(true)) == commandComplete(0x200A, [0x00]))
        #expect(bench.reply(LESetAdvertisingEnable(false)) == commandComplete(0x200A, [0x00]))
        #expect(bench.reply(LESetScanParameters()) == commandComplete(0x200B, [0x00]))
        #expect(bench.reply(LESetScanEnable(true)) == commandComplete(0x200C, [0x00]))
        #expect(bench.reply(LESetScanEnable(false)) == commandComplete(0x200C, [0x00]))
    }

    @Test func extendedAdvertisingCommands() {
        let bench = Bench()
        #expect(bench.reply(LEReadMaximumAdvertisingDataLength()) == commandComplete(0x203A, [0x00, 0x72, 0x06]))  // 1650
        #expect(bench.reply(LEReadNumberOfSupportedAdvertisingSets()) == commandComplete(0x203B, [0x00, 0x10]))  // 16
        // Selected_TX_Power: 0x7F "no preference" → 0 dBm.
        #expect(bench.reply(nonConnectableSet(1)) == commandComplete(0x2036, [0x00, 0x00]))
        #expect(bench.reply(LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress1)) == commandComplete(0x2035, [0x00]))
        #expect(bench.reply(LESetExtendedAdvertisingData(handle: 1, data: beaconData())) == commandComplete(0x2037, [0x00]))
        #expect(bench.reply(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)])) == commandComplete(0x2039, [0x00]))
        #expect(bench.reply(LESetExtendedAdvertisingEnable.disableAll) == commandComplete(0x2039, [0x00]))
        #expect(bench.reply(LERemoveAdvertisingSet(handle: 1)) == commandComplete(0x203C, [0x00]))
        #expect(bench.reply(LEClearAdvertisingSets()) == commandComplete(0x203D, [0x00]))
        let scan = LESetExtendedScanParameters(le1M: .init(interval: 0x0060, window: 0x0030))
        #expect(bench.reply(scan) == commandComplete(0x2041, [0x00]))
        #expect(bench.reply(LESetExtendedScanEnable(true)) == commandComplete(0x2042, [0x00]))
        #expect(bench.reply(LESetExtendedScanEnable(false)) == commandComplete(0x2042, [0x00]))
    }

    /// Selected_TX_Power is the request clamped into the configured −20…+10 dBm.
    @Test(arguments: [(Int8(5), Int8(5)), (15, 10), (-30, -20), (-20, -20), (10, 10), (0x7F, 0)])
    func selectedTxPower(requested: Int8, selected: Int8) {
        var parameters = nonConnectableSet(0)
        parameters.txPower = requested
        #expect(Bench().reply(parameters) == commandComplete(0x2036, [0x00, UInt8(bitPattern: selected)]))
    }

    /// TX power outside −127…+20 and not 0x7F is invalid.
    @Test func txPowerOutOfRange() {
        var parameters = nonConnectableSet(0)
        parameters.txPower = 21
        #expect(Bench().status(parameters) == .invalidCommandParameters)
    }

    /// Unknown opcodes: Command Complete with Unknown HCI Command (0x01), or Command Status when
    /// configured so.
    @Test func unknownOpcode() {
        let readLocalName: [UInt8] = [0x01, 0x14, 0x0C, 0x00]
        #expect(Bench().controller.exchange(readLocalName) == [[0x04, 0x0E, 0x04, 0x01, 0x14, 0x0C, 0x01]])
        var configuration = VirtualController.Configuration()
        configuration.unknownCommandReply = .commandStatus
        #expect(Bench(configuration).controller.exchange(readLocalName) == [[0x04, 0x0F, 0x04, 0x01, 0x01, 0x14, 0x0C]])
    }

    /// Without the extended advertising feature, every extended command is unknown.
    @Test func extendedCommandsUnknownWithoutFeature() throws {
        let bench = try Bench(options: ["legacy": "yes"])
        let extended: [any HCICommand] = [
            LESetAdvertisingSetRandomAddress(handle: 0, address: staticAddress1), nonConnectableSet(0),
            LESetExtendedAdvertisingData(handle: 0, data: []), LESetExtendedAdvertisingEnable.disableAll,
            LEReadMaximumAdvertisingDataLength(), LEReadNumberOfSupportedAdvertisingSets(), LERemoveAdvertisingSet(handle: 0),
            LEClearAdvertisingSets(), LESetExtendedScanParameters(le1M: .init(interval: 16, window: 16)), LESetExtendedScanEnable(false),
        ]
        for command in extended {
            #expect(bench.status(command) == .unknownCommand, "\(type(of: command).name)")
        }
        // Legacy advertising still works.
        bench.succeed(LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0), LESetAdvertisingEnable(true))
    }

    /// A malformed parameter block is Invalid HCI Command Parameters, not silence.
    @Test func malformedParameters() {
        let bench = Bench()
        // LE Set Advertising Enable with 2 (only 0/1 exist).
        #expect(bench.controller.exchange([0x01, 0x0A, 0x20, 0x01, 0x02]) == [commandComplete(0x200A, [0x12])])
        // LE Set Advertising Data claiming 32 significant bytes.
        #expect(bench.controller.exchange([0x01, 0x08, 0x20, 0x20, 0x20] + [UInt8](repeating: 0, count: 31)) == [commandComplete(0x2008, [0x12])])
        // A length byte that disagrees with the bytes that follow.
        #expect(bench.controller.exchange([0x01, 0x03, 0x0C, 0x02]) == [commandComplete(0x0C03, [0x12])])
        // Not a command: ignored.
        #expect(bench.controller.exchange([0x02, 0x00, 0x00, 0x00, 0x00]).isEmpty)
    }
}
