// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconScanner
import HCI
import Testing

@Suite("scan engine")
struct ScanEngineTests {
    typealias F = Fixtures
    static let address: [UInt8] = [1, 2, 3, 4, 5, 0xC0]

    static func report(_ minor: UInt16, rssi: Int8) throws -> HCIEvent {
        try HCIEvent(bytes: F.legacyReportEvent(address: address, data: F.payload(major: 1, minor: minor, power: -59), rssi: rssi))
    }

    @Test("reports, enters, ranging and exits of the region's beacons only")
    func pipeline() throws {
        let region = try BeaconRegion(uuid: F.uuid, major: 1, minor: 2)
        var e = ScanEngine(regions: [region], exitAfter: .seconds(1))
        let first = e.ingest(try Self.report(2, rssi: -59), at: FakeClock.t(0.1))
        guard first.count == 2, case .report(let s) = first[0], case .region(let enter) = first[1] else {
            Issue.record("expected a report and an enter, got \(first)")
            return
        }
        #expect(s.beacon.iBeacon?.minor == 2)
        #expect(enter.kind == .enter && enter.beacon == F.identity(1, 2) && enter.regionChanged)
        #expect(e.ingest(try Self.report(3, rssi: -40), at: FakeClock.t(0.2)).isEmpty, "minor 3: outside the region")

        let tick = e.tick(at: FakeClock.t(1.0))
        guard tick.count == 1, case .ranging(let list, let at) = tick[0] else {
            Issue.record("expected one ranging update, got \(tick)")
            return
        }
        #expect(at == FakeClock.t(1.0))
        #expect(list.map(\.identity) == [F.identity(1, 2)], "only the region's beacon is ranged")

        let later = e.tick(at: FakeClock.t(1.2))
        guard later.count == 2, case .region(let exit) = later[0], case .ranging(let after, _) = later[1] else {
            Issue.record("expected an exit then a ranging update, got \(later)")
            return
        }
        #expect(exit.kind == .exit && exit.time == FakeClock.t(1.1))
        #expect(after.first?.proximity == .unknown, "no report in the last second")
    }

    @Test("an iPhone's formats: an AltBeacon of the region's UUID is neither reported nor ranged, an iBeacon is; raw hears both")
    func iosRangesIBeaconsOnly() throws {
        // An AltBeacon whose 20-byte ID is the fixture UUID, major 1, minor 2.
        let alt = [0x02, 0x01, 0x06, 0x1B, 0xFF, 0x18, 0x01, 0xBE, 0xAC] + F.uuid.bytes + [0x00, 0x01, 0x00, 0x02, 0xC5, 0x00]
        let altEvent = try HCIEvent(bytes: F.legacyReportEvent(address: [9, 9, 9, 9, 9, 0xC0], data: alt, rssi: -60))
        let region = try BeaconRegion(uuid: F.uuid)
        var ios = ScanEngine(regions: [region], formats: PhoneScanning(.ios).formats)
        var raw = ScanEngine(regions: [region], formats: PhoneScanning(.raw).formats)
        #expect(ios.ingest(altEvent, at: FakeClock.t(0.1)).isEmpty)
        #expect(raw.ingest(altEvent, at: FakeClock.t(0.1)).count == 2, "a report and an enter")
        #expect(ios.ingest(try Self.report(2, rssi: -59), at: FakeClock.t(0.2)).count == 2)
    }
}
