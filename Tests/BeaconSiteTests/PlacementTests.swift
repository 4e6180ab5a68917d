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

    /// The placement of before the radios were put in cells (every beacon against every radio,
    /// sorted): the grid must place exactly as it did.
    static func everyRadio(_ beacons: [BeaconProfile], on radios: [SiteRadio], maximumDistance: Double, keeping previous: [String: SiteRadio.ID]) -> [String] {
        let placer = SitePlacer(maximumDistance: maximumDistance)
        var load: [SiteRadio.ID: Int] = [:]
        var chosen: [Int: SiteRadio.ID] = [:]
        let reach = beacons.map { b in radios.enumerated().map { ($1, SitePlacer.distance(b, $1), $0) }.filter { $0.1 <= maximumDistance }.sorted { ($0.1, $0.2) < ($1.1, $1.2) } }
        func room(_ id: SiteRadio.ID) -> Bool { load[id, default: 0] < placer.capacity(of: radios.first { $0.id == id }!) }
        for i in beacons.indices {
            guard let kept = previous[SiteBeaconID.of(beacons[i])], reach[i].contains(where: { $0.0.id == kept }), room(kept) else { continue }
            chosen[i] = kept
            load[kept, default: 0] += 1
        }
        for i in beacons.indices.filter({ !reach[$0].isEmpty && chosen[$0] == nil }).sorted(by: { (reach[$0].count, $0) < (reach[$1].count, $1) }) {
            let open = reach[i].filter { room($0.0.id) }
            guard let nearest = open.first?.1 else { continue }
            func share(_ r: SiteRadio) -> Double { Double(load[r.id, default: 0]) / Double(max(1, placer.capacity(of: r))) }
            let best = open.filter { $0.1 <= nearest + SitePlacer.sameDistance }.min { share($0.0) < share($1.0) }!
            chosen[i] = best.0.id
            load[best.0.id, default: 0] += 1
        }
        return beacons.indices.map { chosen[$0]?.description ?? "-" }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func radiosInCellsPlaceExactlyAsLookingAtEveryRadioDid(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let side = Double(Int.random(in: 20...200, using: &random))
        let maximumDistance = Double(Int.random(in: 5...40, using: &random))
        let radios = (0..<Int.random(in: 1...60, using: &random)).map { r in
            Self.radio("h\(r)", x: Double(Int.random(in: 0...Int(side), using: &random)), y: Double(Int.random(in: 0...Int(side), using: &random)) - side / 2,
                       capacity: Int.random(in: 1...6, using: &random))
        }
        let beacons = (0..<Int.random(in: 1...300, using: &random)).map { b in
            Self.beacon(UInt16(b), x: Double(Int.random(in: -10...Int(side) + 10, using: &random)) + 0.5, y: Double(Int.random(in: 0...Int(side), using: &random)) - side / 2)
        }
        let placer = SitePlacer(maximumDistance: maximumDistance)
        let first = placer.place(beacons, on: radios)
        #expect(first.assignments.map(\.radio.description) == Self.everyRadio(beacons, on: radios, maximumDistance: maximumDistance, keeping: [:]).filter { $0 != "-" })
        // Again with half the radios gone, keeping what stays.
        let left = radios.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let again = placer.place(beacons, on: left, keeping: first.radioByBeacon)
        #expect(again.assignments.map(\.radio.description)
                == Self.everyRadio(beacons, on: left, maximumDistance: maximumDistance, keeping: first.radioByBeacon).filter { $0 != "-" })
        // Every beacon is placed or named with why.
        #expect(again.assignments.count + again.unplaced.count == beacons.count)
    }

    @Test func aStopAskedForMidwayPlacesNothing() {
        let radios = (0..<10).map { Self.radio("h\($0)", x: Double($0) * 10) }
        let beacons = (0..<1000).map { Self.beacon(UInt16($0), x: Double($0 % 100)) }
        var asked = 0
        let placement = SitePlacer(maximumDistance: 20).place(beacons, on: radios) {
            asked += 1
            return asked > 3
        }
        #expect(placement.assignments.isEmpty)
        #expect(placement.unplaced.count == beacons.count)
        #expect(placement.unplaced.allSatisfy { $0.reason == "not placed: the controller stopped" })
        // Asked every 64 beacons, not at each.
        #expect(asked == 4)
        // Not stopped: all placed.
        #expect(SitePlacer(maximumDistance: 20).place(beacons, on: radios).unplaced.isEmpty)
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

