// SPDX-License-Identifier: GPL-2.0-or-later
// Byte vectors written out by hand from BlueZ doc/mgmt-api.txt and lib/mgmt.h (struct
// mgmt_cp_* / mgmt_rp_*, all __packed, little-endian): not produced by the code under test.
import HCI
import Mgmt
import Testing

@Suite struct MgmtCommandVectorTests {
    @Test func readVersionIsAHeaderForNoController() {
        // Command Code 0x0001, Controller Index 0xFFFF <non-controller>, Parameter Length 0.
        #expect(ReadManagementVersionInformation().packet(index: MgmtPacketHeader.nonController).bytes == [0x01, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        var reader = HCIReader([0x01, 0x16, 0x00])
        let reply = try? ReadManagementVersionInformation.ReturnParameters(decoding: &reader)
        #expect(reply?.version == 1 && reply?.revision == 22 && reply?.text == "1.22")
        #expect(reply?.hasExtendedAdvertisingCommands == true)
        #expect(ReadManagementVersionInformation.ReturnParameters(version: 1, revision: 18).hasExtendedAdvertisingCommands == false)
    }

    @Test func readAdvertisingFeaturesOnHci0() throws {
        #expect(ReadAdvertisingFeatures().packet(index: 0).bytes == [0x3D, 0x00, 0x00, 0x00, 0x00, 0x00])
        // Supported_Flags 0x0000F7FF (bits 0–10 and 12–15), 31, 31, Max_Instances 3, Num_Instances 1, [2].
        var reader = HCIReader([0xFF, 0xF7, 0x00, 0x00, 0x1F, 0x1F, 0x03, 0x01, 0x02])
        let features = try ReadAdvertisingFeatures.ReturnParameters(decoding: &reader)
        #expect(features.supportedFlags.contains([.canSetTxPower, .useIntervals, .useTxPower]))
        #expect(features.maxAdvertisingDataLength == 31 && features.maxInstances == 3 && features.instances == [2])
        var writer = HCIWriter()
        features.encode(into: &writer)
        #expect(writer.bytes == [0xFF, 0xF7, 0x00, 0x00, 0x1F, 0x1F, 0x03, 0x01, 0x02])
        #expect(MgmtAdvertisingFlags(rawValue: 0x0001_C411).names == ["connectable", "tx-power", "can-set-tx-power", "param-intervals", "param-tx-power", "param-scan-rsp"])
        #expect(MgmtAdvertisingFlags(rawValue: 1 << 20).names == ["bit 20"])
        // Num_Instances says 2 but one instance follows.
        var short = HCIReader([0, 0, 0, 0, 31, 31, 3, 2, 1])
        #expect(throws: HCIDecodingError.self) { _ = try ReadAdvertisingFeatures.ReturnParameters(decoding: &short) }
    }

    @Test func addExtendedAdvertisingParametersLayout() throws {
        let command = AddExtendedAdvertisingParameters(instance: 1, flags: [.useIntervals, .useTxPower], minInterval: 0xA0, maxInterval: 0xA0, txPower: -4)
        let expected: [UInt8] = [
            0x54, 0x00, 0x00, 0x00, 0x12, 0x00,  // opcode 0x0054, hci0, 18 octets
            0x01,                                // Instance
            0x00, 0xC0, 0x00, 0x00,              // Flags: bits 14 (intervals) and 15 (TX power)
            0x00, 0x00, 0x00, 0x00,              // Duration, Timeout
            0xA0, 0x00, 0x00, 0x00,              // MinInterval 160 × 0.625 ms = 100 ms
            0xA0, 0x00, 0x00, 0x00,              // MaxInterval
            0xFC,                                // TxPower −4 dBm
        ]
        #expect(command.packet(index: 0).bytes == expected)
        #expect(try AddExtendedAdvertisingParameters(parameters: Array(expected.dropFirst(6))) == command)
        var reader = HCIReader([0x01, 0xF9, 0x1F, 0x1F])
        let reply = try AddExtendedAdvertisingParameters.ReturnParameters(decoding: &reader)
        #expect(reply.instance == 1 && reply.txPower == -7 && reply.maxAdvertisingDataLength == 31)
    }

    @Test func addExtendedAdvertisingDataLayout() throws {
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0xFF, 0x4C, 0x00]
        let command = AddExtendedAdvertisingData(instance: 2, advertisingData: data)
        #expect(command.packet(index: 1).bytes == [0x55, 0x00, 0x01, 0x00, 0x0A, 0x00, 0x02, 0x07, 0x00] + data)
        #expect(try AddExtendedAdvertisingData(parameters: [0x02, 0x07, 0x00] + data) == command)
        // Adv length 7 but 6 octets follow.
        #expect(throws: HCIDecodingError.self) { _ = try AddExtendedAdvertisingData(parameters: [0x02, 0x07, 0x00] + data.dropLast()) }
    }

    @Test func addAdvertisingLayout() throws {
        let data: [UInt8] = [0x02, 0x01, 0x06]
        let command = AddAdvertising(instance: 3, advertisingData: data, scanResponse: [0x02, 0x0A, 0x00])
        let parameters: [UInt8] = [0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0x03, 0x03, 0x02, 0x01, 0x06, 0x02, 0x0A, 0x00]
        #expect(command.packet(index: 0).bytes == [0x3E, 0x00, 0x00, 0x00, 0x11, 0x00] + parameters)
        #expect(try AddAdvertising(parameters: parameters) == command)
    }

    @Test func removeAdvertisingLayout() throws {
        #expect(RemoveAdvertising(instance: 4).packet(index: 0).bytes == [0x3F, 0x00, 0x00, 0x00, 0x01, 0x00, 0x04])
        #expect(RemoveAdvertising(instance: 0).removesAll)
        #expect(throws: HCIDecodingError.self) { _ = try RemoveAdvertising(parameters: [1, 2]) }
    }
}

@Suite struct ReadControllerInformationVectorTests {
    @Test func layoutFromTheDocumentation() throws {
        // Command Code 0x0004, Controller Index 0 (hci0), no parameters.
        #expect(ReadControllerInformation().packet(index: 0).bytes == [0x04, 0x00, 0x00, 0x00, 0x00, 0x00])
        // Address 00:1A:7D:DA:71:13 (little-endian), Bluetooth_Version 0x09 (5.0), Manufacturer
        // 0x0002, Supported_Settings 0x0001BEFF, Current_Settings 0x00000AD1 (powered), Class
        // 0x000000, Name "vm", Short_Name "".
        var bytes: [UInt8] = [0x13, 0x71, 0xDA, 0x7D, 0x1A, 0x00, 0x09, 0x02, 0x00, 0xFF, 0xBE, 0x01, 0x00, 0xD1, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00]
        bytes += [0x76, 0x6D] + [UInt8](repeating: 0, count: 247) + [UInt8](repeating: 0, count: 11)
        #expect(bytes.count == 280)
        var reader = HCIReader(bytes)
        let info = try ReadControllerInformation.ReturnParameters(decoding: &reader)
        #expect(info.address.description == "00:1A:7D:DA:71:13")
        #expect(info.bluetoothVersion == .v5_0)
        #expect(info.manufacturer == 2 && info.supportedSettings == 0x0001_BEFF && info.currentSettings == 0x0000_0AD1)
        #expect(info.isPowered)
        #expect(info.name.prefix(2) == [0x76, 0x6D])
        var writer = HCIWriter()
        info.encode(into: &writer)
        #expect(writer.bytes == bytes)
        var short = HCIReader(Array(bytes.dropLast()))
        #expect(throws: HCIDecodingError.self) { _ = try ReadControllerInformation.ReturnParameters(decoding: &short) }
    }
}
