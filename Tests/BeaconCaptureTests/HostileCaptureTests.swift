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
}
