// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
@testable import BeaconScanner
import HCI
import Testing

@Suite("report decoding")
struct ReportDecodingTests {
    typealias F = Fixtures
    /// C0:11:22:33:44:55 as it travels in HCI: least significant byte first.
    static let addressBytes: [UInt8] = [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0]

    @Test("legacy report bytes → iBeacon, RSSI, address")
    func legacy() throws {
        let bytes = F.legacyReportEvent(address: Self.addressBytes, data: F.payload(major: 0x0102, minor: 0xFFFE, power: -59), rssi: -67)
        #expect(bytes.count == 2 + 1 + 1 + 1 + 1 + 6 + 1 + 30 + 1)
        let event = try HCIEvent(bytes: bytes)
        let s = ReportDecoder.sightings(in: event, at: FakeClock.t(1))
        #expect(s.count == 1)
        let first = try #require(s.first)
        #expect(first.beacon.iBeacon == IBeacon(uuid: F.uuid, major: 0x0102, minor: 0xFFFE, measuredPower: -59))
        #expect(first.rssi == -67)
        #expect(first.address.description == "C0:11:22:33:44:55")
        #expect(first.addressType == .random)
        #expect(!first.extendedReport)
        #expect(first.time == FakeClock.t(1))
    }

    @Test("extended report bytes (legacy PDU and extended PDU) → iBeacon")
    func extended() throws {
        // Event_Type 0x0010: legacy PDU, not connectable, not scannable: ADV_NONCONN_IND.
        let legacyPDU = try HCIEvent(bytes: F.extendedReportEvent(eventType: 0x0010, address: Self.addressBytes,
                                                                  data: F.payload(major: 1, minor: 2, power: -60), rssi: -70))
        let s1 = try #require(ReportDecoder.sightings(in: legacyPDU, at: FakeClock.t(0)).first)
        #expect(s1.beacon.iBeacon == IBeacon(uuid: F.uuid, major: 1, minor: 2, measuredPower: -60))
        #expect(s1.rssi == -70 && s1.extendedReport)

        // An extended PDU may carry more than 31 bytes: the iBeacon after 40 bytes of other data.
        let filler: [UInt8] = [0x29, 0xFF, 0x59, 0x00] + [UInt8](repeating: 0xAB, count: 38)
        let long = F.payload(major: 3, minor: 4, power: -55) + filler
        #expect(long.count > 31)
        let extendedPDU = try HCIEvent(bytes: F.extendedReportEvent(eventType: 0x0000, address: Self.addressBytes, sid: 3, data: long, rssi: 127))
        let s2 = try #require(ReportDecoder.sightings(in: extendedPDU, at: FakeClock.t(0)).first)
        #expect(s2.beacon.iBeacon?.major == 3 && s2.beacon.iBeacon?.minor == 4 && s2.beacon.iBeacon?.measuredPower == -55)
        #expect(s2.rssi == nil, "127 means not available")

        // The same long data claimed as a legacy PDU breaks the 31-byte limit: not a beacon.
        let lying = try HCIEvent(bytes: F.extendedReportEvent(eventType: 0x0010, address: Self.addressBytes, data: long, rssi: -50))
        #expect(ReportDecoder.sightings(in: lying, at: FakeClock.t(0)).isEmpty)
    }

    @Test("fragments with more to come or truncated are skipped")
    func incomplete() throws {
        for status: UInt16 in [1, 2] {
            let event = try HCIEvent(bytes: F.extendedReportEvent(eventType: status << 5, address: Self.addressBytes,
                                                                 data: F.payload(major: 1, minor: 1, power: -59), rssi: -50))
            #expect(ReportDecoder.sightings(in: event, at: FakeClock.t(0)).isEmpty, "data status \(status)")
        }
    }

    @Test("not iBeacons: other data, malformed data, other events")
    func notBeacons() throws {
        var wrongCompany = F.payload(major: 1, minor: 1, power: -59)
        wrongCompany[5] = 0x59  // Nordic, not Apple
        var truncated = F.payload(major: 1, minor: 1, power: -59)
        truncated.removeLast()  // the manufacturer structure's length byte now overruns the data
        for data in [wrongCompany, truncated, [0x02, 0x01, 0x06]] {
            let event = try HCIEvent(bytes: F.legacyReportEvent(address: Self.addressBytes, data: data, rssi: -50))
            #expect(ReportDecoder.sightings(in: event, at: FakeClock.t(0)).isEmpty, "\(Hex.string(data))")
        }
        let commandComplete = try HCIEvent(bytes: [0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00])
        #expect(ReportDecoder.sightings(in: commandComplete, at: FakeClock.t(0)).isEmpty)
    }

    @Test("several reports in one event")
    func several() throws {
        let a = F.payload(major: 1, minor: 1, power: -59)
        let b = F.payload(major: 1, minor: 2, power: -58)
        let reports: [UInt8] = [0x03, 0x00] + Self.addressBytes + [UInt8(a.count)] + a + [0xC0]
            + [0x03, 0x01] + Self.addressBytes + [UInt8(b.count)] + b + [0xB0]
        let params: [UInt8] = [0x02, 0x02] + reports
        let event = try HCIEvent(bytes: [0x3E, UInt8(params.count)] + params)
        let s = ReportDecoder.sightings(in: event, at: FakeClock.t(0))
        #expect(s.map(\.beacon.iBeacon?.minor) == [1, 2])
        #expect(s.map(\.rssi) == [-64, -80])
    }
}
