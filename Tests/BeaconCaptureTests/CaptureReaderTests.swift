// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import HCI
import Testing

/// Reads every packet of a file into (type, direction, index, time, bytes) tuples.
func readAll(_ path: String, chunkSize: Int = CaptureReader.defaultChunkSize) throws
    -> (format: CaptureFormat, packets: [(CapturedPacketType, CaptureDirection, UInt16, Int64?, [UInt8])], skipped: Int) {
    var reader = try CaptureReader(path: path, chunkSize: chunkSize)
    var packets: [(CapturedPacketType, CaptureDirection, UInt16, Int64?, [UInt8])] = []
    while let p = try reader.nextPacket() {
        packets.append((p.type, p.direction, p.controllerIndex, p.timestamp.nanoseconds, Array(p.bytes)))
    }
    return (reader.format, packets, reader.skippedRecords)
}

@Suite struct CaptureReaderTests {
    /// A btsnoop H4 file written out literally: header, one HCI Reset command sent at
    /// 2023-11-14 22:13:20 UTC (Unix 1 700 000 000 s) + 5 µs.
    @Test func literalBTSnoopH4() throws {
        let file: [UInt8] = [
            0x62, 0x74, 0x73, 0x6E, 0x6F, 0x6F, 0x70, 0x00,  // "btsnoop\0"
            0x00, 0x00, 0x00, 0x01,  // version 1
            0x00, 0x00, 0x03, 0xEA,  // datalink 1002 (H4)
            0x00, 0x00, 0x00, 0x04,  // original length 4
            0x00, 0x00, 0x00, 0x04,  // included length 4
            0x00, 0x00, 0x00, 0x02,  // flags: command, sent
            0x00, 0x00, 0x00, 0x00,  // drops
            // then the timestamp: µs since 0000-01-01, big-endian
        ] + CaptureFiles.be64(1_700_000_000_000_005 + 0x00DC_DDB3_0F2F_8000) + [0x01, 0x03, 0x0C, 0x00]
        let path = try CaptureFiles.write(file)
        let result = try readAll(path)
        #expect(result.format == .btsnoopH4)
        #expect(result.packets.count == 1)
        let p = try #require(result.packets.first)
        #expect(p.0 == .hci(.command))
        #expect(p.1 == .sent)
        #expect(p.3 == 1_700_000_000_000_005_000)
        #expect(p.4 == [0x03, 0x0C, 0x00])
    }

    @Test func btsnoopH4DirectionsAndChunkBoundaries() throws {
        let event = HCIBytes.advertisingReport([(BluetoothAddress(0xC0_11_22_33_44_55), 1, [0x02, 0x01, 0x06], -70)])
        var file = CaptureFiles.btsnoopHeader(datalink: 1002)
        for i in 0..<50 {
            file += CaptureFiles.btsnoopRecord(flags: 3, unixMicroseconds: UInt64(1_000_000 + i), data: [0x04] + event)
            file += CaptureFiles.btsnoopRecord(flags: 2, unixMicroseconds: UInt64(1_000_000 + i), data: [0x01, 0x03, 0x0C, 0x00])
        }
        let path = try CaptureFiles.write(file)
        let whole = try readAll(path)
        #expect(whole.packets.count == 100)
        #expect(whole.packets[0].0 == .hci(.event) && whole.packets[0].1 == .received && whole.packets[0].4 == event)
        #expect(whole.packets[1].0 == .hci(.command) && whole.packets[1].1 == .sent)
        // Chunks smaller than a record header: every record straddles refills.
        for chunk in [1, 7, 23, 64] {
            let small = try readAll(path, chunkSize: chunk)
            #expect(small.packets.count == 100)
            #expect(small.packets.map(\.4) == whole.packets.map(\.4))
            #expect(small.packets.map(\.3) == whole.packets.map(\.3))
        }
    }

    /// Datalink 2001: the flags hold index << 16 | opcode; data has no H4 indicator.
    @Test func btsnoopMonitor() throws {
        var file = CaptureFiles.btsnoopHeader(datalink: 2001)
        // New Index (opcode 0) for index 1: metadata, skipped.
        file += CaptureFiles.btsnoopRecord(flags: 1 << 16 | 0, unixMicroseconds: 10,
                                           data: [0x00, 0x01] + [UInt8](repeating: 0xAA, count: 6) + Array("hci1\0\0\0\0".utf8))
        file += CaptureFiles.btsnoopRecord(flags: 1 << 16 | 2, unixMicroseconds: 11, data: [0x03, 0x0C, 0x00])
        file += CaptureFiles.btsnoopRecord(flags: 1 << 16 | 3, unixMicroseconds: 12, data: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        file += CaptureFiles.btsnoopRecord(flags: 0 << 16 | 5, unixMicroseconds: 13, data: [0x01, 0x20, 0x00, 0x00])
        file += CaptureFiles.btsnoopRecord(flags: 12, unixMicroseconds: 14, data: Array("note\0".utf8))  // system note
        let result = try readAll(try CaptureFiles.write(file))
        #expect(result.format == .btsnoopMonitor)
        #expect(result.skipped == 2)
        #expect(result.packets.map(\.0) == [.hci(.command), .hci(.event), .hci(.acl)])
        #expect(result.packets.map(\.1) == [.sent, .received, .received])
        #expect(result.packets.map(\.2) == [1, 1, 0])
        #expect(result.packets[1].4 == [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        #expect(result.packets[0].3 == 11_000)
    }

    /// Link type 201 in both byte orders and both time resolutions.
    @Test(arguments: [(true, false), (true, true), (false, false), (false, true)])
    func pcapH4WithPHDR(bigEndian: Bool, nanoseconds: Bool) throws {
        let event = HCIBytes.advertisingReport([(BluetoothAddress(0xC0_00_00_00_00_01), 1, [], -40)])
        var file = CaptureFiles.pcapHeader(bigEndian: bigEndian, nanoseconds: nanoseconds, linkType: 201)
        // The direction pseudo-header is big-endian whatever the file's byte order: 1 received, 0 sent.
        file += CaptureFiles.pcapRecord(bigEndian: bigEndian, seconds: 1_700_000_000, fraction: 250,
                                        data: CaptureFiles.be32(1) + [0x04] + event)
        file += CaptureFiles.pcapRecord(bigEndian: bigEndian, seconds: 1_700_000_001, fraction: 0,
                                        data: CaptureFiles.be32(0) + [0x01, 0x03, 0x0C, 0x00])
        let result = try readAll(try CaptureFiles.write(file))
        #expect(result.format == .pcapH4WithPHDR(bigEndian: bigEndian, nanoseconds: nanoseconds))
        #expect(result.packets.count == 2)
        #expect(result.packets[0].0 == .hci(.event) && result.packets[0].1 == .received && result.packets[0].4 == event)
        #expect(result.packets[1].0 == .hci(.command) && result.packets[1].1 == .sent)
        #expect(result.packets[0].3 == Int64(1_700_000_000_000_000_000 + (nanoseconds ? 250 : 250_000)))
    }

    @Test func truncatedRecordIsReported() throws {
        var file = CaptureFiles.btsnoopHeader(datalink: 1002)
        file += CaptureFiles.btsnoopRecord(flags: 2, unixMicroseconds: 1, data: [0x01, 0x03, 0x0C, 0x00])
        file += Array(CaptureFiles.btsnoopRecord(flags: 2, unixMicroseconds: 2, data: [0x01, 0x03, 0x0C, 0x00]).dropLast(2))
        var reader = try CaptureReader(path: try CaptureFiles.write(file))
        #expect(try reader.nextPacket() != nil)
        #expect(throws: CaptureError.self) { _ = try reader.nextPacket() }
    }

    @Test func notACaptureAndUnsupportedLinkTypes() throws {
        let text = try CaptureFiles.write(Array("hello, world: not a capture".utf8))
        #expect(throws: CaptureError.notACapture(path: text)) { _ = try CaptureReader(path: text) }
        #expect(throws: CaptureError.unsupportedLinkType(format: "btsnoop", value: 1003)) {
            _ = try CaptureReader(path: try CaptureFiles.write(CaptureFiles.btsnoopHeader(datalink: 1003)))
        }
        #expect(throws: CaptureError.unsupportedLinkType(format: "pcap", value: 1)) {
            _ = try CaptureReader(path: try CaptureFiles.write(CaptureFiles.pcapHeader(bigEndian: false, nanoseconds: false, linkType: 1)))
        }
        // A header and no records: no packets, no error.
        var empty = try CaptureReader(path: try CaptureFiles.write(CaptureFiles.btsnoopHeader(datalink: 2001)))
        #expect(try empty.nextPacket() == nil)
    }
}
