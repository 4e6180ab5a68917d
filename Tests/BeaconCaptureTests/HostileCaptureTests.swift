// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Foundation
import TestSupport
import Testing

/// Lengths and counts in a capture come from whoever wrote it: each extreme is an error or a
/// skipped packet, never a trap, and `beacon decode --capture` says which.
@Suite struct HostileCaptureTests {
    static let payload = HCIBytes.iBeaconPayload(IBeacon(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2, measuredPower: -59))

    /// A btsnoop record header whose included length is `included`, with no data after it.
    static func btsnoopClaiming(_ included: UInt32) -> [UInt8] {
        CaptureFiles.btsnoopHeader(datalink: 1002) + CaptureFiles.be32(included) + CaptureFiles.be32(included)
            + CaptureFiles.be32(0) + CaptureFiles.be32(0) + CaptureFiles.be64(CaptureFiles.btsnoopEpoch)
    }

    @Test(arguments: [UInt32.max, UInt32(Int32.max), UInt32(CaptureReader.maximumRecordLength + 1)])
    func hugeRecordLengthsAreErrors(included: UInt32) throws {
        let btsnoop = try CaptureFiles.write(Self.btsnoopClaiming(included))
        let pcap = try CaptureFiles.write(CaptureFiles.pcapHeader(bigEndian: false, nanoseconds: true, linkType: 187)
            + CaptureFiles.le32(0) + CaptureFiles.le32(0) + CaptureFiles.le32(included) + CaptureFiles.le32(included))
        for path in [btsnoop, pcap] {
            #expect(throws: CaptureError.recordTooLarge(fileOffset: path == btsnoop ? 16 : 24, length: Int(included))) {
                _ = try CaptureBeaconScan.forEachSighting(path: path) { _ in }
            }
        }
        let result = try Program.run(try Executables.beacon.get(), ["decode", "--capture", btsnoop, "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("more than an HCI packet can hold"), "\(result.stderr)")
    }

    @Test func aRecordAtTheLimitThatTheFileDoesNotHoldIsTruncated() throws {
        let path = try CaptureFiles.write(Self.btsnoopClaiming(UInt32(CaptureReader.maximumRecordLength)) + [0x04, 0x3E])
        #expect(throws: CaptureError.self) { _ = try CaptureBeaconScan.forEachSighting(path: path) { _ in } }
    }

    /// Report counts and data lengths past what the event carries: malformed and counted (the
    /// reports read before the fault still count, as the walk streams); the good packet after
    /// them is still found.
    @Test func countsAndLengthsPastTheEventAreMalformedPackets() throws {
        let address = BluetoothAddress(0xC0_00_00_00_00_01)
        let good = HCIBytes.advertisingReport([(address, 1, Self.payload, -60)])
        var manyReports = good
        manyReports[3] = 255  // Num_Reports
        var longData = good
        longData[3 + 1 + 1 + 1 + 6] = 255  // Data_Length, after Num_Reports, Event_Type, Address_Type, Address
        var extended = HCIBytes.extendedAdvertisingReport(address: address, sid: 1, rssi: -60, data: Self.payload)
        extended[3] = 200  // Num_Reports
        var wrongParameterLength = good
        wrongParameterLength[1] = 255
        var file = CaptureFiles.btsnoopHeader(datalink: 1002)
        for event in [manyReports, longData, extended, wrongParameterLength, good] {
            file += CaptureFiles.btsnoopRecord(flags: 3, unixMicroseconds: 0, data: [0x04] + event)
        }
        var found: [CapturedBeacon] = []
        let summary = try CaptureBeaconScan.forEachSighting(path: try CaptureFiles.write(file)) { found.append($0) }
        #expect(summary.malformedPackets == 4)
        // The first report of each event that claims more reports than it holds, and the good one.
        #expect(found.map(\.source) == [.report, .extendedReport, .report], "\(found)")
    }

    /// pcapng lengths at their extremes: each a refusal naming the block's offset, found without
    /// reading (or allocating) what the lengths claim.
    @Test func hostilePcapngLengths() throws {
        let w = PcapngFiles(bigEndian: false)
        let head = w.sectionHeader() + w.interface(linkType: 187)
        let at = head.count
        func patched(_ block: [UInt8], _ offset: Int, _ value: UInt32) -> [UInt8] {
            var b = block
            b.replaceSubrange(offset..<(offset + 4), with: w.u32(value))
            return b
        }
        let packet = w.enhancedPacket(interface: 0, ticks: 0, data: [0x04] + Self.payload)
        let big = CaptureReader.maximumRecordLength + 4
        let cases: [([UInt8], CaptureError)] = [
            (patched(packet, 4, 0xFFFF_FFFC), .malformedBlock(fileOffset: at, blockType: 6, problem: .tooLarge(length: 0xFFFF_FFFC, limit: Pcapng.maximumBlockLength))),
            (patched(packet, 20, UInt32.max), .malformedBlock(fileOffset: at, blockType: 6, problem: .capturedLengthPastBlock(captured: UInt32.max, room: packet.count - 32))),
            (w.enhancedPacket(interface: 0, ticks: 0, data: [UInt8](repeating: 0x04, count: big)), .recordTooLarge(fileOffset: at, length: big)),
            (patched(packet, 8, UInt32.max), .malformedBlock(fileOffset: at, blockType: 6, problem: .unknownInterface(id: UInt32.max, described: 1))),
            (patched(w.nameResolution(), 4, 0xFFFF_FFFC), .truncatedRecord(fileOffset: at, needed: 0xFFFF_FFFC, available: 28)),
        ]
        for (bad, error) in cases {
            let path = try CaptureFiles.write(head + bad)
            #expect(throws: error) { _ = try CaptureBeaconScan.forEachSighting(path: path) { _ in } }
        }
        // An Interface Description Block past the limit per section.
        let interface = w.interface(linkType: 187)
        var many = w.sectionHeader()
        many.reserveCapacity(many.count + interface.count * (Pcapng.maximumInterfaces + 1))
        for _ in 0...Pcapng.maximumInterfaces { many += interface }
        #expect(throws: CaptureError.malformedBlock(fileOffset: 28 + interface.count * Pcapng.maximumInterfaces, blockType: 1,
                                                    problem: .tooManyInterfaces(limit: Pcapng.maximumInterfaces))) {
            _ = try CaptureBeaconScan.forEachSighting(path: try CaptureFiles.write(many)) { _ in }
        }
    }
}
