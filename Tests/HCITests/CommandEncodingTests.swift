// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import BeaconCodec
import HCI
import Testing

/// One command and its H4 bytes, written by hand from Core Vol 4 Part E §7 (indicator 0x01,
/// opcode little-endian, parameter length, parameters).
///
/// Cross-checked once against Bumble 0.0.236's encoder (`bytes(HCI_LE_…_Command(...))`), which
/// produced the same bytes for opcodes 0x2005, 0x2006, 0x2008, 0x2035, 0x2036, 0x2037, 0x2039 (two
/// sets), 0x2041 (both PHYs) and 0x2042, and parsed the advertising report vectors in EventTests
/// to the same fields.
struct CommandVector: Sendable, CustomTestStringConvertible {
    let command: any HCICommand
    let h4: String
    /// btmon's header line for the packet.
    let btmon: String
    var testDescription: String { btmon }
}

let commandVectors: [CommandVector] = [
    // < HCI Command: Set Event Mask (0x03|0x0001) plen 8
    .init(command: HCISetEventMask([.default, .leMeta]), h4: "01 01 0C 08 FF FF FF FF FF 1F 00 20",
          btmon: "Set Event Mask (0x03|0x0001) plen 8"),
    // < HCI Command: Reset (0x03|0x0003) plen 0
    .init(command: HCIReset(), h4: "01 03 0C 00", btmon: "Reset (0x03|0x0003) plen 0"),
    // < HCI Command: Read Local Version Information (0x04|0x0001) plen 0
    .init(command: HCIReadLocalVersionInformation(), h4: "01 01 10 00", btmon: "Read Local Version Information (0x04|0x0001) plen 0"),
    // < HCI Command: Read Local Supported Commands (0x04|0x0002) plen 0
    .init(command: HCIReadLocalSupportedCommands(), h4: "01 02 10 00", btmon: "Read Local Supported Commands (0x04|0x0002) plen 0"),
    // < HCI Command: Read BD ADDR (0x04|0x0009) plen 0
    .init(command: HCIReadBDADDR(), h4: "01 09 10 00", btmon: "Read BD_ADDR (0x04|0x0009) plen 0"),
    // < HCI Command: LE Set Event Mask (0x08|0x0001) plen 8 — bits 1, 12, 17 = 0x21002
    .init(command: LESetEventMask([.advertisingReport, .extendedAdvertisingReport, .advertisingSetTerminated]),
          h4: "01 01 20 08 02 10 02 00 00 00 00 00", btmon: "LE Set Event Mask (0x08|0x0001) plen 8"),
    // < HCI Command: LE Read Local Supported Features (0x08|0x0003) plen 0
    .init(command: LEReadLocalSupportedFeatures(), h4: "01 03 20 00", btmon: "LE Read Local Supported Features (0x08|0x0003) plen 0"),
    // < HCI Command: LE Set Random Address (0x08|0x0005) plen 6 — Address: C0:11:22:33:44:55
    .init(command: LESetRandomAddress(staticAddress), h4: "01 05 20 06 55 44 33 22 11 C0",
          btmon: "LE Set Random Address (0x08|0x0005) plen 6"),
    // < HCI Command: LE Set Advertising Parameters (0x08|0x0006) plen 15
    //   Min/max advertising interval: 100.000 msec (0x00a0), Type: Non connectable undirected (0x03),
    //   Own address type: Random (0x01), Direct address: 00:00:00:00:00:00 (Public), Channel map: 37, 38, 39 (0x07),
    //   Filter policy: Allow Scan Request from Any, Allow Connect Request from Any (0x00)
    .init(command: LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0, advertisingType: .nonConnectableUndirected,
                                              ownAddressType: .random),
          h4: "01 06 20 0F A0 00 A0 00 03 01 00 00 00 00 00 00 00 07 00",
          btmon: "LE Set Advertising Parameters (0x08|0x0006) plen 15"),
    // < HCI Command: LE Read Advertising Channel TX Power (0x08|0x0007) plen 0
    .init(command: LEReadAdvertisingPhysicalChannelTxPower(), h4: "01 07 20 00",
          btmon: "LE Read Advertising Physical Channel Tx Power (0x08|0x0007) plen 0"),
    // < HCI Command: LE Set Advertising Data (0x08|0x0008) plen 32 — Length: 30, then 30 octets + 1 zero of padding
    .init(command: LESetAdvertisingData(AdvertisingPayload(appleExampleAdvertisingData)!),
          h4: "01 08 20 20 1E 02 01 06 1A FF 4C 00 02 15 E2C56DB5DFFB48D2B060D0F5A71096E0 0001 0002 C5 00",
          btmon: "LE Set Advertising Data (0x08|0x0008) plen 32"),
    // < HCI Command: LE Set Scan Response Data (0x08|0x0009) plen 32 — Length: 0, 31 zeros
    .init(command: LESetScanResponseData(AdvertisingPayload()),
          h4: "01 09 20 20 00" + String(repeating: " 00", count: 31),
          btmon: "LE Set Scan Response Data (0x08|0x0009) plen 32"),
    // < HCI Command: LE Set Advertising Enable (0x08|0x000a) plen 1 — Advertising: Enabled (0x01)
    .init(command: LESetAdvertisingEnable(true), h4: "01 0A 20 01 01", btmon: "LE Set Advertising Enable (0x08|0x000A) plen 1"),
    // < HCI Command: LE Set Scan Parameters (0x08|0x000b) plen 7 — Type: Active (0x01), Interval/Window: 10.000 msec (0x0010)
    .init(command: LESetScanParameters(scanType: .active, interval: 0x0010, window: 0x0010),
          h4: "01 0B 20 07 01 10 00 10 00 00 00", btmon: "LE Set Scan Parameters (0x08|0x000B) plen 7"),
    // < HCI Command: LE Set Scan Enable (0x08|0x000c) plen 2 — Scanning: Enabled (0x01), Filter duplicates: Enabled (0x01)
    .init(command: LESetScanEnable(true, filterDuplicates: true), h4: "01 0C 20 02 01 01",
          btmon: "LE Set Scan Enable (0x08|0x000C) plen 2"),
    // < HCI Command: LE Set Advertising Set Random Address (0x08|0x0035) plen 7 — Handle: 0x01, Address: C0:11:22:33:44:55
    .init(command: LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress), h4: "01 35 20 07 01 55 44 33 22 11 C0",
          btmon: "LE Set Advertising Set Random Address (0x08|0x0035) plen 7"),
    // < HCI Command: LE Set Extended Advertising Parameters (0x08|0x0036) plen 25
    //   Handle: 0x00, Properties: 0x0010 (Use legacy advertising PDUs: ADV_NONCONN_IND),
    //   Min/max advertising interval: 100.000 msec (0x00a0), Channel map: 37, 38, 39 (0x07), Own address type: Random (0x01),
    //   Peer address type: Public (0x00), Peer address: 00:00:00:00:00:00, Filter policy: 0x00, TX power: 127 (no preference),
    //   Primary PHY: LE 1M (0x01), Secondary max skip: 0x00, Secondary PHY: LE 1M (0x01), SID: 0x00, Scan request notifications: Disabled
    .init(command: LESetExtendedAdvertisingParameters(handle: 0, intervalMin: 0xA0, intervalMax: 0xA0),
          h4: "01 36 20 19 00 10 00 A0 00 00 A0 00 00 07 01 00 00 00 00 00 00 00 00 7F 01 00 01 00 00",
          btmon: "LE Set Extended Advertising Parameters (0x08|0x0036) plen 25"),
    // < HCI Command: LE Set Extended Advertising Data (0x08|0x0037) plen 7
    //   Handle: 0x00, Operation: Complete extended advertising data (0x03), Fragment preference: Minimize fragmentation (0x01), Data length: 0x03
    .init(command: LESetExtendedAdvertisingData(handle: 0, data: bytes("02 01 06")), h4: "01 37 20 07 00 03 01 03 02 01 06",
          btmon: "LE Set Extended Advertising Data (0x08|0x0037) plen 7"),
    // < HCI Command: LE Set Extended Scan Response Data (0x08|0x0038) plen 12
    //   Handle: 0x00, Operation: Complete scan response data (0x03), Fragment preference: Minimize fragmentation (0x01), Data length: 0x08
    //   (Core Vol 4 Part E §7.8.55; the layout of §7.8.54's command, the data a Complete Local Name "Door 1")
    .init(command: LESetExtendedScanResponseData(handle: 0, data: bytes("07 09 44 6F 6F 72 20 31")),
          h4: "01 38 20 0C 00 03 01 08 07 09 44 6F 6F 72 20 31",
          btmon: "LE Set Extended Scan Response Data (0x08|0x0038) plen 12"),
    // < HCI Command: LE Set Extended Advertising Enable (0x08|0x0039) plen 10
    //   Extended advertising: Enabled (0x01), Number of sets: 2
    //   Entry 0: Handle 0x00, Duration 0 ms, Max ext adv events 0; Entry 1: Handle 0x01, Duration 1000 ms (0x64), Max ext adv events 5
    .init(command: LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0), .init(handle: 1, duration: 0x64, maxExtendedAdvertisingEvents: 5)]),
          h4: "01 39 20 0A 01 02 00 00 00 00 01 64 00 05", btmon: "LE Set Extended Advertising Enable (0x08|0x0039) plen 10"),
    // < HCI Command: LE Set Extended Advertising Enable (0x08|0x0039) plen 2 — Disabled, Number of sets: Disable all sets (0x00)
    .init(command: LESetExtendedAdvertisingEnable.disableAll, h4: "01 39 20 02 00 00",
          btmon: "LE Set Extended Advertising Enable (0x08|0x0039) plen 2"),
    // < HCI Command: LE Read Maximum Advertising Data Length (0x08|0x003a) plen 0
    .init(command: LEReadMaximumAdvertisingDataLength(), h4: "01 3A 20 00", btmon: "LE Read Maximum Advertising Data Length (0x08|0x003A) plen 0"),
    // < HCI Command: LE Read Number of Supported Advertising Sets (0x08|0x003b) plen 0
    .init(command: LEReadNumberOfSupportedAdvertisingSets(), h4: "01 3B 20 00",
          btmon: "LE Read Number of Supported Advertising Sets (0x08|0x003B) plen 0"),
    // < HCI Command: LE Remove Advertising Set (0x08|0x003c) plen 1 — Handle: 2
    .init(command: LERemoveAdvertisingSet(handle: 2), h4: "01 3C 20 01 02", btmon: "LE Remove Advertising Set (0x08|0x003C) plen 1"),
    // < HCI Command: LE Clear Advertising Sets (0x08|0x003d) plen 0
    .init(command: LEClearAdvertisingSets(), h4: "01 3D 20 00", btmon: "LE Clear Advertising Sets (0x08|0x003D) plen 0"),
    // < HCI Command: LE Set Extended Scan Parameters (0x08|0x0041) plen 8
    //   Own address type: Public (0x00), Filter policy: Accept all advertisement (0x00), PHYs: 0x01, Entry 0: LE 1M, Passive (0x00),
    //   Interval: 11.250 msec (0x0012), Window: 11.250 msec (0x0012)
    .init(command: LESetExtendedScanParameters(le1M: .init(interval: 0x12, window: 0x12)), h4: "01 41 20 08 00 00 01 00 12 00 12 00",
          btmon: "LE Set Extended Scan Parameters (0x08|0x0041) plen 8"),
    // < HCI Command: LE Set Extended Scan Parameters (0x08|0x0041) plen 13 — PHYs: 0x05, Entry 0: LE 1M, Entry 1: LE Coded, Active, Interval 0x0024
    .init(command: LESetExtendedScanParameters(le1M: .init(interval: 0x12, window: 0x12),
                                               leCoded: .init(scanType: .active, interval: 0x24, window: 0x12)),
          h4: "01 41 20 0D 00 00 05 00 12 00 12 00 01 24 00 12 00", btmon: "LE Set Extended Scan Parameters (0x08|0x0041) plen 13"),
    // < HCI Command: LE Set Extended Scan Enable (0x08|0x0042) plen 6 — Enabled, Filter duplicates: Enabled, Duration: 0, Period: 0
    .init(command: LESetExtendedScanEnable(true, filterDuplicates: 1), h4: "01 42 20 06 01 01 00 00 00 00",
          btmon: "LE Set Extended Scan Enable (0x08|0x0042) plen 6"),
    // < HCI Command: LE Read Transmit Power (0x08|0x004b) plen 0
    .init(command: LEReadTransmitPower(), h4: "01 4B 20 00", btmon: "LE Read Transmit Power (0x08|0x004B) plen 0"),
]

@Suite("HCI commands encode byte-exact and decode back")
struct CommandEncodingTests {
    @Test("encodes to the hand-written H4 bytes", arguments: commandVectors)
    func encodes(vector: CommandVector) {
        #expect(Hex.string(vector.command.h4Bytes, separator: " ") == Hex.string(bytes(vector.h4), separator: " "))
    }

    @Test("decodes back through the opcode registry", arguments: commandVectors)
    func decodes(vector: CommandVector) throws {
        let h4 = bytes(vector.h4)
        #expect(h4.first == 0x01)
        let packet = try HCICommandPacket(bytes: Array(h4.dropFirst()))
        #expect(packet.description == vector.btmon)
        let decoded = try #require(try HCICommandRegistry.decode(packet))
        #expect(AnyHashable(decoded) == AnyHashable(vector.command))
        #expect(decoded.packetBytes == Array(h4.dropFirst()))
    }

    @Test func everyCommandHasAVectorAndARegistryEntry() throws {
        // Every command the module declares (one spec command per file in Sources/HCI/Commands)
        // is registered, once: counted from the sources, not from a number written here.
        let commands = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/HCI/Commands").standardized
        let declared = try FileManager.default.contentsOfDirectory(atPath: commands.path).filter { $0.hasSuffix(".swift") }.map { file in
            let text = try String(contentsOf: commands.appendingPathComponent(file), encoding: .utf8)
            return try #require(text.firstMatch(of: /struct (\w+): HCICommand\b/).map { String($0.1) }, "\(file) declares no command")
        }
        #expect(!declared.isEmpty)
        #expect(HCICommandRegistry.all.map { "\($0)" }.sorted() == declared.sorted())
        #expect(Set(HCICommandRegistry.all.map { $0.opcode }).count == HCICommandRegistry.all.count, "two entries share an opcode")
        let covered = Set(commandVectors.map { type(of: $0.command).opcode })
        for type in HCICommandRegistry.all {
            #expect(covered.contains(type.opcode), "no byte vector for \(type.name)")
            #expect(HCICommandRegistry.commandType(for: type.opcode) == type)
        }
        #expect(HCICommandRegistry.commandType(for: HCIOpcode(rawValue: 0x2043)) == nil)
        #expect(try HCICommandRegistry.decode(HCICommandPacket(opcode: HCIOpcode(rawValue: 0xFC01), parameters: [1])) == nil)
    }

    @Test func opcodeSplitsIntoGroupAndCommandFields() {
        let opcode = LESetExtendedAdvertisingParameters.opcode
        #expect(opcode.ogf == 0x08)
        #expect(opcode.ocf == 0x0036)
        #expect(HCIOpcode(ogf: 0x03, ocf: 0x0003) == HCIReset.opcode)
        #expect(opcode.description == "0x08|0x0036")
        #expect(LESetAdvertisingEnable(false).description == "LE Set Advertising Enable (0x08|0x000A)")
    }

    @Test func legacyDataPaddingIsIgnoredAndOverlongLengthIsRefused() throws {
        // A controller only looks at the significant octets; junk in the padding must not leak in.
        var params = [UInt8(3)] + [0x02, 0x01, 0x06] + [UInt8](repeating: 0xEE, count: 28)
        let decoded = try LESetAdvertisingData(packet: HCICommandPacket(opcode: LESetAdvertisingData.opcode, parameters: params))
        #expect(Array(decoded.data) == [0x02, 0x01, 0x06])
        params[0] = 32
        #expect(throws: HCIDecodingError.invalidValue(field: "Advertising_Data_Length", value: 32, allowed: "0…31")) {
            try LESetAdvertisingData(packet: HCICommandPacket(opcode: LESetAdvertisingData.opcode, parameters: params))
        }
    }

    @Test func malformedParametersAreTypedErrors() throws {
        // Missing the single parameter.
        #expect(throws: HCIDecodingError.truncated(field: "Advertising_Enable", needed: 1, available: 0)) {
            try HCICommandRegistry.decode(HCICommandPacket(opcode: LESetAdvertisingEnable.opcode, parameters: []))
        }
        // One byte too many.
        #expect(throws: HCIDecodingError.trailingBytes(after: "command parameters", count: 1)) {
            try HCICommandRegistry.decode(HCICommandPacket(opcode: LESetAdvertisingEnable.opcode, parameters: [1, 0]))
        }
        // Enable must be 0 or 1.
        #expect(throws: HCIDecodingError.invalidValue(field: "Advertising_Enable", value: 2, allowed: "0x00 or 0x01")) {
            try LESetAdvertisingEnable(packet: HCICommandPacket(opcode: LESetAdvertisingEnable.opcode, parameters: [2]))
        }
        // Num_Sets says 2 but only one set follows.
        #expect(throws: HCIDecodingError.truncated(field: "advertising sets", needed: 8, available: 4)) {
            try LESetExtendedAdvertisingEnable(packet: HCICommandPacket(opcode: LESetExtendedAdvertisingEnable.opcode, parameters: bytes("01 02 00 00 00 00")))
        }
        // A PHY bit whose parameter block we cannot size.
        #expect(throws: HCIDecodingError.invalidValue(field: "Scanning_PHYs", value: 2, allowed: "bits 0 (LE 1M) and 2 (LE Coded)")) {
            try LESetExtendedScanParameters(packet: HCICommandPacket(opcode: LESetExtendedScanParameters.opcode, parameters: bytes("00 00 02")))
        }
        // The length byte must match what follows.
        #expect(throws: HCIDecodingError.lengthMismatch(declared: 2, actual: 1)) { try HCICommandPacket(bytes: bytes("0A 20 02 01")) }
        // Decoding as the wrong type.
        #expect(throws: HCIDecodingError.opcodeMismatch(expected: HCIReset.opcode, actual: LEClearAdvertisingSets.opcode)) {
            try HCIReset(packet: LEClearAdvertisingSets().packet)
        }
    }

    @Test func extendedDataFromALegacyPayload() {
        let command = LESetExtendedAdvertisingData(handle: 4, payload: AdvertisingPayload(appleExampleAdvertisingData)!)
        // < HCI Command: LE Set Extended Advertising Data (0x08|0x0037) plen 34 — Handle 4, Complete, no fragmentation, length 30
        #expect(command.h4Bytes == bytes("01 37 20 22 04 03 01 1E") + appleExampleAdvertisingData)
    }

    @Test func extendedIntervalsUseThreeOctets() throws {
        let command = LESetExtendedAdvertisingParameters(handle: 3, intervalMin: 0x12_3456, intervalMax: 0xFF_FFFF)
        let params = command.parameterBytes
        #expect(params.count == 25)
        #expect(Array(params[3..<9]) == [0x56, 0x34, 0x12, 0xFF, 0xFF, 0xFF])
        #expect(try LESetExtendedAdvertisingParameters(packet: command.packet) == command)
        // Negative TX power travels as two's complement.
        var lowPower = command
        lowPower.txPower = -20
        #expect(lowPower.parameterBytes[19] == 0xEC)
    }
}
