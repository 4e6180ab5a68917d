// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconRadio
import BeaconCodec
import BeaconEmulator
import BeaconProfiles
import Testing
@testable import BeaconSite

/// Placement: nearest radio in reach with room, balanced by capacity, and the beacons no radio
/// can carry named with why.
@Suite struct PlacementTests {
    static let uuid = BeaconUUID("8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061")!

    static func beacon(_ minor: UInt16, x: Double, y: Double = 0) -> BeaconProfile {
        BeaconProfile(name: "b\(minor)", beacon: IBeacon(uuid: uuid, major: 1, minor: minor, measuredPower: -59),
                      position: Point(x: x, y: y))
    }

    static func radio(_ host: String, _ adapter: String = "hci0", x: Double, y: Double = 0, capacity: Int? = nil) -> SiteRadio {
        SiteRadio(host: host, adapter: AdapterName(adapter), position: Point(x: x, y: y), capacity: capacity)
    }

    @Test func eachBeaconGoesToTheNearestRadio() {
        let radios = [Self.radio("a", x: 0), Self.radio("b", x: 10)]
        let beacons = [Self.beacon(1, x: 1), Self.beacon(2, x: 9), Self.beacon(3, x: 4.9), Self.beacon(4, x: 5.1)]
        let placement = SitePlacer(maximumDistance: 20).place(beacons, on: radios)
        #expect(placement.unplaced.isEmpty)
        #expect(placement.assignments.map(\.radio.host) == ["a", "b", "a", "b"])
        #expect(placement.assignments.map(\.distance) == [1, 1, 4.9, 4.9])
    }

    @Test func aFullRadioSendsTheRestToTheNextNearestInReach() {
        let radios = [Self.radio("a", x: 0, capacity: 2), Self.radio("b", x: 6)]
        let beacons = (1...4).map { Self.beacon(UInt16($0), x: 0) }
        let placement = SitePlacer(maximumDistance: 10).place(beacons, on: radios)
        #expect(placement.assignments(on: radios[0].id).count == 2)
        #expect(placement.assignments(on: radios[1].id).count == 2)
        #expect(placement.unplaced.isEmpty)
    }

    @Test func equallyNearRadiosShareByCapacity() {
        // Two radios on the same spot, one with three times the room: beacons split 3 : 1.
        let radios = [Self.radio("a", x: 0, capacity: 30), Self.radio("b", x: 0, capacity: 10)]
        let beacons = (1...8).map { Self.beacon(UInt16($0), x: 1) }
        let placement = SitePlacer(maximumDistance: 10).place(beacons, on: radios)
        #expect(placement.assignments(on: radios[0].id).count == 6)
        #expect(placement.assignments(on: radios[1].id).count == 2)
    }

    @Test func aBeaconWithOneRadioInReachIsPlacedBeforeThoseWithAChoice() {
        // b1 could use a or b; b2 only a. a has room for one: it must go to b2.
        let radios = [Self.radio("a", x: 0, capacity: 1), Self.radio("b", x: 8)]
        let beacons = [Self.beacon(1, x: 3), Self.beacon(2, x: -3)]
        let placement = SitePlacer(maximumDistance: 6).place(beacons, on: radios)
        #expect(placement.radioByBeacon[SiteBeaconID.of(beacons[1])]?.host == "a")
        #expect(placement.radioByBeacon[SiteBeaconID.of(beacons[0])]?.host == "b")
    }

    @Test func beaconsNoRadioCanCarryAreNamedWithTheReason() {
        let radios = [Self.radio("a", x: 0, capacity: 1)]
        let beacons = [Self.beacon(1, x: 1), Self.beacon(2, x: 2), Self.beacon(3, x: 50)]
        let placement = SitePlacer(maximumDistance: 10).place(beacons, on: radios)
        #expect(placement.assignments.map(\.beacon.name) == ["b1"])
        #expect(placement.unplaced.map(\.beacon.name) == ["b2", "b3"])
        #expect(placement.unplaced[0].reason == "every radio within 10 m is full: a/hci0 (1 beacons)")
        #expect(placement.unplaced[1].reason == "no radio within 10 m (max_distance); the nearest, a/hci0, is 50 m away")
        let none = SitePlacer(maximumDistance: 10).place(beacons, on: [])
        #expect(none.unplaced.allSatisfy { $0.reason == "no radio is available" })
    }

    @Test func aKeptBeaconStaysOnItsRadioAndALostRadiosBeaconsMove() {
        let radios = [Self.radio("a", x: 0), Self.radio("b", x: 4), Self.radio("c", x: 8)]
        let beacons = [Self.beacon(1, x: 1), Self.beacon(2, x: 3), Self.beacon(3, x: 5)]
        let placer = SitePlacer(maximumDistance: 10)
        let first = placer.place(beacons, on: radios)
        #expect(first.assignments.map(\.radio.host) == ["a", "b", "b"])
        // b goes away: its beacons go to the nearest of the others; b1 does not move.
        let after = placer.place(beacons, on: [radios[0], radios[2]], keeping: first.radioByBeacon)
        #expect(after.assignments.map(\.radio.host) == ["a", "a", "c"])
        // A beacon kept where it was even when another radio is now nearer (no churn on restart).
        let kept = placer.place(beacons, on: radios, keeping: after.radioByBeacon)
        #expect(kept.assignments.map(\.radio.host) == ["a", "a", "c"])
    }

    @Test func aRadioWithoutCapacityGetsWhatTheCoveragePlannerPromises() {
        let placer = SitePlacer(maximumDistance: 10)
        let promised = placer.planner.beaconCapacity(of: .assumedExtended(adapter: "hci0", sets: SitePlacer.assumedSets))
        #expect(promised >= SitePlacer.assumedSets)
        #expect(placer.capacity(of: Self.radio("a", x: 0)) == promised)
        #expect(placer.capacity(of: Self.radio("a", x: 0, capacity: 3)) == 3)
    }

    @Test func beaconIdentityIsTheFormatsNeverTheAddress() {
        var b = Self.beacon(7, x: 0)
        let id = SiteBeaconID.of(b)
        #expect(id == "8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-1-7")
        b.address = BluetoothAddress("C0:11:22:33:44:55")!
        #expect(SiteBeaconID.of(b) == id)
        #expect(SiteNames.problem(withTopicLevel: id) == nil)
    }
}
