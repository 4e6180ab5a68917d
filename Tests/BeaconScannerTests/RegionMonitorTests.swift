// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
@testable import BeaconScanner
import Testing

@Suite("regions")
struct RegionMonitorTests {
    typealias F = Fixtures

    @Test("constraints: UUID, UUID+major, UUID+major+minor, or any")
    func contains() throws {
        let uuid = try BeaconRegion(uuid: F.uuid)
        let major = try BeaconRegion(uuid: F.uuid, major: 1)
        let minor = try BeaconRegion(uuid: F.uuid, major: 1, minor: 2)
        #expect(uuid.contains(F.identity(9, 9)))
        #expect(!uuid.contains(F.identity(1, 2, uuid: F.otherUUID)))
        #expect(major.contains(F.identity(1, 9)) && !major.contains(F.identity(2, 2)))
        #expect(minor.contains(F.identity(1, 2)) && !minor.contains(F.identity(1, 3)))
        #expect(BeaconRegion.any.contains(F.identity(5, 5, uuid: F.otherUUID)))
        #expect(throws: BeaconRegion.Invalid.majorWithoutUUID) { try BeaconRegion(uuid: nil, major: 1) }
        #expect(throws: BeaconRegion.Invalid.minorWithoutMajor) { try BeaconRegion(uuid: F.uuid, minor: 1) }
    }

    @Test("every format's identity: a UUID region holds AltBeacons by their ID read as UUID, major, minor; a namespace region Eddystone-UID beacons")
    func everyFormat() throws {
        // The Android Beacon Library's id1/id2/id3: the first 16 bytes, then two 2-byte halves.
        let alt = BeaconKey.altBeacon(manufacturerID: 0x0118, id: AltBeaconID(prefix: F.uuid, suffix: 0x0001_0002))
        let otherAlt = BeaconKey.altBeacon(manufacturerID: 0x0118, id: AltBeaconID(prefix: F.otherUUID, suffix: 0x0001_0002))
        #expect(try BeaconRegion(uuid: F.uuid).contains(alt) && !BeaconRegion(uuid: F.uuid).contains(otherAlt))
        #expect(try BeaconRegion(uuid: F.uuid, major: 1, minor: 2).contains(alt) && !BeaconRegion(uuid: F.uuid, major: 1, minor: 3).contains(alt))
        let namespace = try #require(EddystoneNamespace("00112233445566778899"))
        let uid = BeaconKey.eddystoneUID(namespace: namespace, instance: EddystoneInstance(1))
        let elsewhere = BeaconKey.eddystoneUID(namespace: try #require(EddystoneNamespace("99887766554433221100")), instance: EddystoneInstance(1))
        #expect(BeaconRegion(namespace: namespace).contains(uid) && !BeaconRegion(namespace: namespace).contains(elsewhere))
        #expect(BeaconRegion(namespace: namespace, instance: EddystoneInstance(1)).contains(uid))
        #expect(!BeaconRegion(namespace: namespace, instance: EddystoneInstance(2)).contains(uid))
        // Across kinds: a UUID region holds no Eddystone, a namespace region no iBeacon or AltBeacon.
        #expect(try !BeaconRegion(uuid: F.uuid).contains(uid))
        #expect(!BeaconRegion(namespace: namespace).contains(F.identity(1, 2)) && !BeaconRegion(namespace: namespace).contains(alt))
        #expect(BeaconRegion.any.contains(alt) && BeaconRegion.any.contains(uid))
        #expect(BeaconRegion(namespace: namespace, instance: EddystoneInstance(1)).description == "namespace 00112233445566778899 instance 000000000001")
    }

    @Test("enter on the first report; exit after the silence, at the last report plus the delay")
    func enterExit() {
        var m = RegionMonitor(regions: [.any], exitAfter: .seconds(30))
        let a = F.identity(1, 1)
        let enter = m.observe(a, at: FakeClock.t(0))
        #expect(enter == [RegionEvent(kind: .enter, region: .any, beacon: a, time: FakeClock.t(0), regionChanged: true)])
        #expect(m.observe(a, at: FakeClock.t(10)).isEmpty, "seen again: no new enter")
        #expect(m.check(at: FakeClock.t(39.9)).isEmpty, "silent 29.9 s: still inside")
        #expect(m.isInside(.any))
        let exit = m.check(at: FakeClock.t(41))
        #expect(exit == [RegionEvent(kind: .exit, region: .any, beacon: a, time: FakeClock.t(40), regionChanged: true)])
        #expect(!m.isInside(.any))
        #expect(m.check(at: FakeClock.t(100)).isEmpty, "an exit happens once")
        #expect(m.observe(a, at: FakeClock.t(101)).map(\.kind) == [.enter], "and it can enter again")
    }

    @Test("the region is entered by its first beacon and exited with its last")
    func regionLevel() throws {
        let region = try BeaconRegion(uuid: F.uuid, major: 1)
        var m = RegionMonitor(regions: [region], exitAfter: .seconds(2))
        let a = F.identity(1, 1), b = F.identity(1, 2)
        #expect(m.observe(a, at: FakeClock.t(0)).map(\.regionChanged) == [true])
        #expect(m.observe(b, at: FakeClock.t(0.5)).map(\.regionChanged) == [false])
        #expect(m.observe(F.identity(2, 1), at: FakeClock.t(0.6)).isEmpty, "major 2 is outside the region")
        #expect(m.beacons(in: region) == [a, b])
        _ = m.observe(b, at: FakeClock.t(1.5))
        let first = m.check(at: FakeClock.t(2.2))
        #expect(first.map(\.beacon) == [a] && first.map(\.regionChanged) == [false])
        let last = m.check(at: FakeClock.t(3.5))
        #expect(last.map(\.beacon) == [b] && last.map(\.regionChanged) == [true] && last.map(\.time) == [FakeClock.t(3.5)])
    }

    @Test("a beacon back after a long silence exits first, then enters again")
    func backAfterSilence() {
        var m = RegionMonitor(regions: [.any], exitAfter: .seconds(1))
        let a = F.identity(3, 3)
        _ = m.observe(a, at: FakeClock.t(0))
        let events = m.observe(a, at: FakeClock.t(5))
        #expect(events.map(\.kind) == [.exit, .enter])
        #expect(events.map(\.time) == [FakeClock.t(1), FakeClock.t(5)])
    }

    @Test("several regions are watched independently")
    func severalRegions() throws {
        let wide = try BeaconRegion(uuid: F.uuid)
        let narrow = try BeaconRegion(uuid: F.uuid, major: 1, minor: 1)
        var m = RegionMonitor(regions: [wide, narrow], exitAfter: .seconds(1))
        #expect(m.observe(F.identity(1, 2), at: FakeClock.t(0)).map(\.region) == [wide])
        #expect(m.observe(F.identity(1, 1), at: FakeClock.t(0.1)).map(\.region) == [wide, narrow])
    }
}
