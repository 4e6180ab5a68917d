// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import HCITransport
import VirtualController

/// Runs plans on the built-in virtual controller: the strict controller (it refuses what the
/// spec refuses), so these prove the order of our commands is legal, and its air log shows what
/// would go on air.
@Suite(.serialized) struct VirtualRunTests {
    func run(_ fleet: [BeaconProfile], options: [String: String], planner: FleetPlanner = FleetPlanner(), for duration: Duration) async throws -> (AdapterConnection, FleetPlan) {
        let connection = try AdapterConnection.open(.virtual(options: options))
        let plan = try await RunningFleet(connections: [connection], planner: planner).advertise(fleet, for: duration)
        return (connection, plan)
    }

    /// Every beacon appears in the air log as ADV_NONCONN_IND from its own address with its own data.
    func expectOnAir(_ fleet: [BeaconProfile], in log: [AirLogEntry], sharedAddress: Bool = false) {
        for b in fleet {
            let data = Array(b.beacon.advertisingData(flags: b.flags))
            let events = log.filter { $0.data == data }
            #expect(!events.isEmpty, "\(b.name) never went on air")
            #expect(events.allSatisfy { $0.pdu == .advNonconnInd && $0.addressType == .random })
            if !sharedAddress { #expect(events.allSatisfy { $0.address == b.address }, "\(b.name) from the wrong address") }
        }
    }

    @Test func roomOnFourExtendedSets() async throws {
        let fleet = beacons(4)
        let (c, plan) = try await run(fleet, options: ["sets": "16"], for: .milliseconds(500))
        #expect(plan.adapters[0].mode == .extendedSets)
        let log = c.virtual!.airLog()
        expectOnAir(fleet, in: log)
        #expect(Set(log.map(\.advertiser)) == [.set(0), .set(1), .set(2), .set(3)])
        #expect(c.virtual!.activeAdvertisers().isEmpty)
        // Teardown removed the sets: enabling one now is an unknown identifier.
        let error = await #expect(throws: HCIControllerError.self) {
            try await c.hci!.send(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]))
        }
        #expect(error?.status == .unknownAdvertisingIdentifier)
        c.close()
    }

    @Test func fortyBeaconsRotateOnFourSets() async throws {
        let fleet = beacons(40)
        let planner = FleetPlanner(slotDuration: .milliseconds(100))
        let (c, plan) = try await run(fleet, options: ["sets": "4"], planner: planner, for: .milliseconds(1300))
        #expect(plan.adapters[0].mode == .extendedRotation)
        #expect(plan.adapters[0].cycleDuration == .milliseconds(1000))
        expectOnAir(fleet, in: c.virtual!.airLog())
        #expect(c.virtual!.activeAdvertisers().isEmpty)
        c.close()
    }

    @Test func legacyOnlyControllerRotates() async throws {
        let fleet = beacons(3)
        let (c, plan) = try await run(fleet, options: ["legacy": "yes", "version": "4.2"], planner: FleetPlanner(slotDuration: .milliseconds(150)), for: .milliseconds(600))
        #expect(plan.adapters[0].mode == .legacy)
        let log = c.virtual!.airLog()
        expectOnAir(fleet, in: log)
        #expect(Set(log.map(\.advertiser)) == [.legacy])
        #expect(c.virtual!.activeAdvertisers().isEmpty)
        c.close()
    }

    @Test func sharedAddressRotation() async throws {
        let fleet = beacons(4)
        let planner = FleetPlanner(slotDuration: .milliseconds(100), shareAddresses: true)
        let (c, _) = try await run(fleet, options: ["sets": "2"], planner: planner, for: .milliseconds(500))
        expectOnAir(fleet, in: c.virtual!.airLog(), sharedAddress: true)
        c.close()
    }

    @Test func fastIntervalOnOldControllerIsRefusedBeforeAnythingIsSent() async throws {
        let connection = try AdapterConnection.open(.virtual(options: ["version": "4.2"]))
        let fleet = RunningFleet(connections: [connection])
        let error = await #expect(throws: AdapterError.self) { try await fleet.start(beacons(1, interval: 50)) }
        #expect(error?.description.contains("not sent") == true)
        let outcome = await fleet.stop()
        #expect(outcome.isClean && outcome.teardowns.isEmpty, "nothing was started, so nothing to tear down")
        #expect(connection.virtual!.airLog().isEmpty)
        connection.close()
    }

    @Test func stoppingTheFleetStopsAdvertising() async throws {
        let connection = try AdapterConnection.open(.virtual(options: [:]))
        let fleet = RunningFleet(connections: [connection])
        try await fleet.start(beacons(2))
        // start returns once the beacons are on air.
        #expect(connection.virtual!.activeAdvertisers().count == 2)
        let outcome = await fleet.stop()
        #expect(outcome.isClean)
        #expect(outcome.teardowns.map(\.teardown) == [.clean])
        #expect(connection.virtual!.activeAdvertisers().isEmpty)
        connection.close()
    }
}
