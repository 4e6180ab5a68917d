// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Foundation
import TestSupport
import Testing

/// Timestamps are read from files we did not write: every 64-bit btsnoop value and every pcap
/// fraction must be read without a trap and printed either exactly or as an explicit marker.
@Suite struct ExtremeTimestampTests {
    static let beacon = IBeacon(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2, measuredPower: -59)

    /// A btsnoop H4 file with one LE Set Advertising Data command whose raw timestamp field is `raw`.
    static func btsnoop(rawTimestamp raw: UInt64) throws -> String {
        let data = [0x01] + HCIBytes.setAdvertisingData(HCIBytes.iBeaconPayload(beacon))
        let record = CaptureFiles.be32(UInt32(data.count)) + CaptureFiles.be32(UInt32(data.count)) + CaptureFiles.be32(0)
            + CaptureFiles.be32(0) + CaptureFiles.be64(raw) + data
        return try CaptureFiles.write(CaptureFiles.btsnoopHeader(datalink: 1002) + record, name: "extreme.btsnoop")
    }

    @Test(arguments: [
        (UInt64.max, 18_384_575_817_709, 551_615_000 as Int32),
        (0, -62_168_256_000, 0),
        // 2300-01-01T00:00:00.000001Z: past what Int64 nanoseconds hold.
        (CaptureFiles.btsnoopEpoch + 10_413_792_000_000_001, 10_413_792_000, 1000),
    ] as [(UInt64, Int64, Int32)])
    func btsnoopTimestampsAreReadExactly(raw: UInt64, seconds: Int64, nanoseconds: Int32) throws {
        var reader = try CaptureReader(path: try Self.btsnoop(rawTimestamp: raw))
        let packet = try #require(try reader.nextPacket())
        #expect(packet.timestamp == CaptureTimestamp(unixSeconds: seconds, nanosecondOfSecond: nanoseconds))
    }

    @Test func aPcapFractionPastOneSecondCarriesIntoTheSeconds() throws {
        let event = [0x04] + HCIBytes.advertisingReport([(BluetoothAddress(0xC0_00_00_00_00_01), 1, HCIBytes.iBeaconPayload(Self.beacon), -60)])
        let file = CaptureFiles.pcapHeader(bigEndian: false, nanoseconds: false, linkType: 187)
            + CaptureFiles.pcapRecord(bigEndian: false, seconds: .max, fraction: .max, data: event)
        var reader = try CaptureReader(path: try CaptureFiles.write(file))
        let packet = try #require(try reader.nextPacket())
        // 4 294 967 295 µs = 4294 s + 967 295 µs.
        #expect(packet.timestamp == CaptureTimestamp(unixSeconds: Int64(UInt32.max) + 4294, nanosecondOfSecond: 967_295_000))
        #expect(packet.timestamp.nanoseconds == Int64(UInt32.max) * 1_000_000_000 + 4_294_967_295_000)
    }

    @Test func nanosecondsAreNilWhenTheyDoNotFitInt64() {
        #expect(CaptureTimestamp(btsnoopMicroseconds: .max).nanoseconds == nil)
        #expect(CaptureTimestamp(btsnoopMicroseconds: 0).nanoseconds == nil)
        #expect(CaptureTimestamp(nanoseconds: -1_500_000_000) == CaptureTimestamp(unixSeconds: -2, nanosecondOfSecond: 500_000_000))
        #expect(CaptureTimestamp(nanoseconds: -1_500_000_000).nanoseconds == -1_500_000_000)
    }

    /// `beacon decode --capture` prints the exact seconds in JSON, and a date or the marker in text.
    @Test(arguments: [
        (UInt64.max, "18384575817709.551615", "(date out of range)"),
        // btsnoop's epoch constant (BlueZ, Wireshark) is "0000-01-01" in name only: in the proleptic
        // Gregorian calendar it is -0001-12-20, outside four-digit years.
        (0, "-62168256000.000000", "(date out of range)"),
        (CaptureFiles.btsnoopEpoch + 10_413_792_000_000_001, "10413792000.000001", "2300-01-01T00:00:00.000001Z"),
        (CaptureFiles.btsnoopEpoch - 1_500_000, "-1.500000", "1969-12-31T23:59:58.500000Z"),
        (CaptureFiles.btsnoopEpoch - 500_000, "-0.500000", "1969-12-31T23:59:59.500000Z"),
    ] as [(UInt64, String, String)])
    func decodePrintsExtremeTimestamps(raw: UInt64, json: String, text: String) throws {
        let beacon = try Executables.beacon.get()
        let path = try Self.btsnoop(rawTimestamp: raw)
        let asJSON = try Program.run(beacon, ["decode", "--capture", path, "--json"])
        #expect(asJSON.status == 0, "\(asJSON.stderr)")
        #expect(asJSON.stdout.hasPrefix(#"{"time":\#(json),"source":"command""#), "\(asJSON.stdout)")
        let table = try Program.run(beacon, ["decode", "--capture", path])
        #expect(table.status == 0, "\(table.stderr)")
        let rows = table.stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.last?.hasPrefix(text) == true, "\(table.stdout)")
        // The marker keeps the columns where a date would put them.
        #expect(rows.last?.dropFirst(27).hasPrefix("  command ") == true, "\(table.stdout)")
    }
}
