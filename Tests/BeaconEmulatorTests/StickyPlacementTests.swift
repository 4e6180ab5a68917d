// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

/// A plan that replaces the one on air keeps every staying beacon where it was (advertiser,
/// address, turn), so an appearing or disappearing beacon restarts nothing else.
@Suite struct StickyPlacementTests {
    /// Beacon name → advertiser handle, per adapter.
    func handles(_ plan: FleetPlan) -> [String: String] {
        Dictionary(uniqueKeysWithValues: plan.placements.map { ($0.beacon.name, "\($0.adapter)/\($0.advertiser)") })
    }

    @Test func anAddedBeaconTakesAFreeSetAndTheOthersStay() {
        let all = beacons(5)
        let before = FleetPlanner().plan(Array(all[1...]), on: [extended(16)])
        #expect(handles(before) == ["b1": "test/0", "b2": "test/1", "b3": "test/2", "b4": "test/3"])
        // b0 comes first in the fleet's order: planned afresh, it would push every other beacon up one set.
        let after = FleetPlanner().plan(all, on: [extended(16)], keeping: before)
        #expect(handles(after) == ["b0": "test/4", "b1": "test/0", "b2": "test/1", "b3": "test/2", "b4": "test/3"])
        #expect(handles(FleetPlanner().plan(all, on: [extended(16)]))["b1"] == "test/1", "afresh, round-robin from handle 0")
    }

    @Test func aRemovedBeaconLeavesTheOthersInPlace() {
        let before = FleetPlanner().plan(beacons(4), on: [extended(16)])
        let after = FleetPlanner().plan(beacons(4).filter { $0.name != "b1" }, on: [extended(16)], keeping: before)
        #expect(handles(after) == ["b0": "test/0", "b2": "test/2", "b3": "test/3"])
        #expect(after.adapters[0].advertisers.map(\.handle) == [0, 2, 3])
        // Back again: the free set is the lowest, handle 1.
        let again = FleetPlanner().plan(beacons(4), on: [extended(16)], keeping: after)
        #expect(handles(again) == handles(before))
    }

    @Test func changedBeaconsKeepTheirSetsWithTheirNewValues() {
        let before = FleetPlanner().plan(beacons(4), on: [extended(16)])
        var changed = Array(beacons(4).reversed())
        changed[0].txPower = 3
        let after = FleetPlanner().plan(changed, on: [extended(16)], keeping: before)
        #expect(handles(after) == handles(before))
        #expect(after.placements.first { $0.beacon.name == "b3" }?.beacon.txPower == 3)
    }

    @Test func rotationKeepsTurnsAndEvenShares() {
        let planner = FleetPlanner(slotDuration: .milliseconds(300))
        let before = planner.plan(beacons(8), on: [extended(4)])
        #expect(before.adapters[0].advertisers.map { $0.beacons.map(\.name) } == [["b0", "b4"], ["b1", "b5"], ["b2", "b6"], ["b3", "b7"]])
        let grown = planner.plan(beacons(9), on: [extended(4)], keeping: before)
        #expect(grown.adapters[0].advertisers.map { $0.beacons.map(\.name) } == [["b0", "b4", "b8"], ["b1", "b5"], ["b2", "b6"], ["b3", "b7"]])
        // Four leave from two sets: b2 and b3 keep theirs; b6 and b7 (their sets now carry one
        // beacon each, an even share) take the sets that were freed, and nothing rotates.
        let shrunk = planner.plan(beacons(8).filter { !["b0", "b4", "b1", "b5"].contains($0.name) }, on: [extended(4)], keeping: before)
        #expect(shrunk.adapters[0].mode == .extendedSets)
        #expect(handles(shrunk) == ["b2": "test/2", "b6": "test/0", "b3": "test/3", "b7": "test/1"])
    }

    @Test func aShareNeverGrowsPastAnEvenShare() {
        // 5 beacons on 4 sets, then 3 join: dealt afresh 8 → 2 per set; kept, no set carries 3.
        let planner = FleetPlanner(slotDuration: .milliseconds(300))
        let before = planner.plan(beacons(5), on: [extended(4)])
        let after = planner.plan(beacons(8), on: [extended(4)], keeping: before)
        #expect(after.adapters[0].advertisers.map(\.beacons.count) == [2, 2, 2, 2])
        #expect(after.adapters[0].slotsPerCycle == 2)
        for name in ["b0", "b1", "b2", "b3", "b4"] { #expect(handles(after)[name] == handles(before)[name], "\(name) moved") }
    }

    @Test func legacyRotationKeepsItsOrder() {
        let before = FleetPlanner().plan(beacons(3), on: [.assumedLegacy(adapter: "old")])
        let after = FleetPlanner().plan(Array(beacons(4).reversed()), on: [.assumedLegacy(adapter: "old")], keeping: before)
        #expect(after.adapters[0].advertisers[0].beacons.map(\.name) == ["b0", "b1", "b2", "b3"])
    }

    @Test func beaconsStayOnTheirAdapter() {
        let caps = [extended(4, adapter: "hci0"), extended(4, adapter: "hci1")]
        let before = FleetPlanner().plan(beacons(6), on: caps)
        #expect(before.adapters.map { $0.advertisers.flatMap(\.beacons).map(\.name) } == [["b0", "b1", "b2"], ["b3", "b4", "b5"]])
        let after = FleetPlanner().plan(Array(beacons(7).filter { $0.name != "b0" }.reversed()) + [beacons(1)[0]], on: caps, keeping: before)
        for name in ["b0", "b1", "b2", "b3", "b4", "b5"] { #expect(handles(after)[name] == handles(before)[name], "\(name) moved") }
        #expect(handles(after)["b6"]?.hasPrefix("hci") == true)
    }

    @Test func sharedAddressesStayWithTheirSet() {
        let planner = FleetPlanner(shareAddresses: true)
        let before = planner.plan(beacons(4), on: [extended(2)])
        let after = planner.plan(beacons(6).filter { $0.name != "b0" }, on: [extended(2)], keeping: before)
        #expect(after.adapters[0].advertisers.map(\.sharedAddress) == before.adapters[0].advertisers.map(\.sharedAddress))
    }
}
