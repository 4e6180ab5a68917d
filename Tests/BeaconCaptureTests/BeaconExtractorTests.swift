// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import HCI
import HCITransport
import Testing

let testUUID = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

@Suite struct BeaconExtractorTests {
    @Test func legacyReportsGiveAddressRSSIAndFields() throws {
        let beacon = IBeacon(uuid: testUUID, major: 7, minor: 9, measuredPower: -61)
        let other: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0xFF, 0x59, 0x00, 0x01, 0x02]  // Nordic data, not Apple
        let event = HCIBytes.advertisingReport([
            (BluetoothAddress(0xC0_11_22_33_44_55), 1, HCIBytes.iBeaconPayload(beacon), -67),
            (BluetoothAddress(0xC0_11_22_33_44_66), 1, other, -50),
            (BluetoothAddress(0x00_11_22_33_44_77), 0, HCIBytes.iBeaconPayload(beacon, flags: .none), 127),
        ])
        var file = CaptureFiles.btsnoopHeader(datalink: 1002)
        file += CaptureFiles.btsnoopRecord(flags: 3, unixMicroseconds: 5_000_000, data: [0x04] + event)
        let found = try CaptureBeaconScan.sightings(path: try CaptureFiles.write(file))
        #expect(found.count == 2)
        #expect(found[0].beacon.iBeacon == beacon)
        #expect(found[0].source == .report)
        #expect(found[0].address == BluetoothAddress(0xC0_11_22_33_44_55))
        #expect(found[0].addressType == .random)
        #expect(found[0].rssi == -67)
        #expect(found[0].timestamp.nanoseconds == 5_000_000_000)
        #expect(found[1].address == BluetoothAddress(0x00_11_22_33_44_77))
        #expect(found[1].rssi == nil)  // 127: not available
    }

    @Test func extendedReports() throws {
        let beacon = IBeacon(uuid: testUUID, major: 1, minor: 2, measuredPower: -59)
        let event = HCIBytes.extendedAdvertisingReport(address: BluetoothAddress(0xC1_00_00_00_00_02), sid: 3, rssi: -72,
                                                       data: HCIBytes.iBeaconPayload(beacon))
        var file = CaptureFiles.pcapHeader(bigEndian: false, nanoseconds: false, linkType: 201)
        file += CaptureFiles.pcapRecord(bigEndian: false, seconds: 1, fraction: 0, data: CaptureFiles.be32(1) + [0x04] + event)
        let found = try CaptureBeaconScan.sightings(path: try CaptureFiles.write(file))
        #expect(found.count == 1)
        #expect(found.first?.source == .extendedReport)
        #expect(found.first?.beacon.iBeacon == beacon)
        #expect(found.first?.rssi == -72)
        #expect(found.first?.handle == 3)
        #expect(found.first?.address == BluetoothAddress(0xC1_00_00_00_00_02))
    }

    /// Our own advertising: the address comes from the latest random-address command for the
    /// legacy advertiser or the set.
    @Test func commandsTakeTheLatestRandomAddress() throws {
        let a = IBeacon(uuid: testUUID, major: 10, minor: 1)
        let b = IBeacon(uuid: testUUID, major: 10, minor: 2)
        var file = CaptureFiles.btsnoopHeader(datalink: 2001)
        let records: [(UInt32, [UInt8])] = [
            (2, HCIBytes.setRandomAddress(BluetoothAddress(0xC0_00_00_00_00_01))),
            (2, HCIBytes.setRandomAddress(BluetoothAddress(0xC0_00_00_00_00_02))),
            (2, HCIBytes.setAdvertisingData(HCIBytes.iBeaconPayload(a))),
            (2, HCIBytes.setAdvertisingSetRandomAddress(handle: 4, BluetoothAddress(0xC4_00_00_00_00_04))),
            (2, HCIBytes.setAdvertisingSetRandomAddress(handle: 5, BluetoothAddress(0xC5_00_00_00_00_05))),
            (2, HCIBytes.setExtendedAdvertisingData(handle: 4, HCIBytes.iBeaconPayload(b))),
            // Another controller index has no address yet.
            (1 << 16 | 2, HCIBytes.setAdvertisingData(HCIBytes.iBeaconPayload(a))),
        ]
        for (i, (flags, data)) in records.enumerated() {
            file += CaptureFiles.btsnoopRecord(flags: flags, unixMicroseconds: UInt64(i), data: data)
        }
        let found = try CaptureBeaconScan.sightings(path: try CaptureFiles.write(file))
        #expect(found.count == 3)
        #expect(found[0].source == .command && found[0].beacon.iBeacon == a && found[0].address == BluetoothAddress(0xC0_00_00_00_00_02))
        #expect(found[1].source == .extendedCommand && found[1].beacon.iBeacon == b && found[1].handle == 4)
        #expect(found[1].address == BluetoothAddress(0xC4_00_00_00_00_04))
        #expect(found[2].controllerIndex == 1 && found[2].address == nil)
        #expect(found.allSatisfy { $0.rssi == nil })
    }

    /// A capture written by our own `beacon --btsnoop` writer (HCITransport's BTSnoopWriter).
    @Test func captureFromBTSnoopWriter() throws {
        let path = try CaptureFiles.write([], name: "writer")
        let beacon = IBeacon(uuid: testUUID, major: 300, minor: 400, measuredPower: -65)
        let address = BluetoothAddress(0xD0_01_02_03_04_05)
        do {
            let writer = try BTSnoopWriter(path: path)
            writer.record(HCIReset().h4Bytes, direction: .sent)
            writer.record(LESetRandomAddress(address).h4Bytes, direction: .sent)
            writer.record(LESetAdvertisingData(beacon.advertisingData()).h4Bytes, direction: .sent)
            writer.record(HCICommandCompleteEvent(for: LESetAdvertisingData.self, status: .success).packet.h4Bytes, direction: .received)
        }
        let found = try CaptureBeaconScan.sightings(path: path)
        #expect(found.count == 1)
        #expect(found.first?.beacon.iBeacon == beacon)
        #expect(found.first?.source == .command)
        #expect(found.first?.address == address)
    }

    /// Malformed report events are counted, not fatal.
    @Test func malformedEventsAreCounted() throws {
        var file = CaptureFiles.btsnoopHeader(datalink: 1002)
        // Claims two reports, carries one and a half.
        let good = HCIBytes.advertisingReport([(BluetoothAddress(1), 0, [], -1)])
        var bad = Array(good.dropLast(3))
        bad[1] = UInt8(bad.count - 2)
        bad[3] = 2
        file += CaptureFiles.btsnoopRecord(flags: 3, unixMicroseconds: 0, data: [0x04] + bad)
        let summary = try CaptureBeaconScan.forEachSighting(path: try CaptureFiles.write(file)) { _ in }
        #expect(summary.malformedPackets == 1)
        #expect(summary.sightings == 0)
    }
}
