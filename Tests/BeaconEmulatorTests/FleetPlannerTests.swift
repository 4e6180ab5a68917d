// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

@Suite struct FleetPlannerTests {
    @Test func fleetThatFitsGetsOneSetPerBeacon() {
        let plan = FleetPlanner().plan(beacons(4), on: [extended(16)])
        #expect(plan.adapters.count == 1)
        #expect(plan.adapters[0].mode == .extendedSets)
        #expect(plan.adapters[0].advertisers.map(\.handle) == [0, 1, 2, 3])
        #expect(plan.adapters[0].advertisers.allSatisfy { $0.beacons.count == 1 })
        #expect(!plan.adapters[0].rotates)
        #expect(plan.warnings.isEmpty)
        // At least one event every 100 ms and its advDelay (up to 10 ms).
        #expect(plan.placements.allSatisfy { abs($0.eventsPerSecond - 1000.0 / 110) < 1e-9 })
        #expect(plan.placements.allSatisfy { $0.longestGap == .milliseconds(110) })
    }

    @Test func moreBeaconsThanSetsRotate() {
        let plan = FleetPlanner(slotDuration: .milliseconds(300)).plan(beacons(10), on: [extended(4)])
        let a = plan.adapters[0]
        #expect(a.mode == .extendedRotation)
        #expect(a.advertisers.map(\.beacons.count) == [3, 3, 2, 2])
        #expect(a.slotsPerCycle == 3)
        #expect(a.cycleDuration == .milliseconds(900))
        // Each beacon is on air one slot in three. A turn is 2 ms of host, 10 commands of 1 ms
        // (disable, 4 × address and data, enable), then events at most 110 ms apart with the
        // first 10 ms after the enable: 3 certain events in 300 ms, 3 per 900 ms cycle.
        #expect(abs(plan.placements[0].eventsPerSecond - 3 / 0.9) < 1e-9)
        #expect(plan.placements[0].eventsPerTurn == 3)
        // Disabled by the next turn no sooner than 300 ms after its turn began, its last event up
        // to 110 ms before; its next first event up to 22 ms into its turn 900 ms later.
        #expect(plan.placements[0].longestGap == .milliseconds(600 + 110 + 22))
    }

    @Test func legacyControllerHasOneAdvertiser() {
        let plan = FleetPlanner().plan(beacons(3, txPower: 4), on: [.assumedLegacy(adapter: "old")])
        #expect(plan.adapters[0].mode == .legacy)
        #expect(plan.adapters[0].advertisers.count == 1)
        #expect(plan.adapters[0].advertisers[0].beacons.count == 3)
        #expect(plan.warnings == ["3 beacons (b0, b1, b2) ask for a tx_power, which is ignored: legacy advertising cannot set the radio's output power"])
        // One beacon: the noun and the verb agree with it.
        let one = FleetPlanner().plan(beacons(1, txPower: 4), on: [.assumedLegacy(adapter: "old")])
        #expect(one.warnings == ["1 beacon (b0) asks for a tx_power, which is ignored: legacy advertising cannot set the radio's output power"])
    }

    @Test func forcedLegacyIgnoresExtendedSets() {
        let plan = FleetPlanner(forceLegacy: true).plan(beacons(2), on: [extended(16)])
        #expect(plan.adapters[0].mode == .legacy)
    }

    @Test func severalAdaptersShareTheFleetByCapacity() {
        let plan = FleetPlanner().plan(beacons(12), on: [extended(8, adapter: "hci0"), extended(4, adapter: "hci1")])
        #expect(plan.adapters.map { $0.advertisers.flatMap(\.beacons).count } == [8, 4])
        #expect(plan.adapters.allSatisfy { $0.mode == .extendedSets })
        #expect(Set(plan.placements.map(\.beacon.name)).count == 12)
    }

    @Test func rareBeaconsAndFastLegacyIntervalsAreWarned() {
        let plan = FleetPlanner().plan(beacons(20, interval: 50), on: [.assumedLegacy(adapter: "old", version: .v4_2)])
        // One line per kind of problem, not one per beacon.
        #expect(plan.warnings.count == 2, "\(plan.warnings)")
        #expect(plan.warnings.contains { $0.description.hasPrefix("20 beacons (b0, b1, b2, …) ask for an interval below 100 ms") && $0.description.hasSuffix("they go on air at 100 ms") })
        #expect(plan.warnings.contains { $0.description.hasPrefix("20 beacons (b0, b1, b2, …) may go unseen for longer than the goal of 1 s") })
        // The goal is a setting each front end names its own way, when it presents the plan.
        let named = PlanReport.summary(plan, tableOmitted: "x", namedBy: { $0 == .maximumSilence ? "--goal" : nil }).joined(separator: " ")
        #expect(named.contains("(--goal)") && !named.contains(FrontEndTerm.maximumSilence.conceptText), "\(named)")
        #expect(plan.warnings.contains { $0.description.contains("(\(FrontEndTerm.maximumSilence.conceptText))") })
        // Taking turns, they go on air at the controller's minimum: the commands are valid.
        #expect(plan.placements.allSatisfy { $0.interval == AdvertisingInterval.pre5NonConnectableMinimum })
        // Turns of 100 ms (the floor) and, for each, a first event up to 16 ms in (2 ms of host,
        // 4 commands, advDelay): 9 turns a cycle are silent for at most 900 + 16 ms, 10 for 1,016 ms.
        #expect(!plan.meetsGoal && plan.adaptersNeeded == 3, "9 turns of 100 ms per second on a 4.2 controller")
    }

    @Test func theLegacyFloorIsJudgedOnTheIntervalSentNotTheOneWritten() {
        // 99.8 ms goes on air as 160 units = 100 ms, which a 4.2 controller accepts.
        let onTheFloor = FleetPlanner().plan(beacons(1, interval: 99.8), on: [.assumedLegacy(adapter: "old", version: .v4_2)])
        #expect(!onTheFloor.warnings.contains { $0.description.contains("below 100 ms") })
        let below = FleetPlanner().plan(beacons(1, interval: 99.6), on: [.assumedLegacy(adapter: "old", version: .v4_2)])
        #expect(below.warnings.contains { $0.description.contains("below 100 ms") })
    }

    @Test func defaultSlotGivesThreeEventsAndAtLeast100ms() {
        #expect(FleetPlanner.defaultSlot(for: beacons(2, interval: 100)) == .milliseconds(300))
        #expect(FleetPlanner.defaultSlot(for: beacons(2, interval: 20)) == .milliseconds(100))
    }
}
