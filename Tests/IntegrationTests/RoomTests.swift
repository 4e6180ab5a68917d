// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import Testing

extension BumbleIntegration {
    /// profiles/room-2m.yaml: four beacons, four extended sets, all on air at once.
    @Suite("room-2m on four sets")
    struct RoomTests {
        @Test("each beacon from its own address with exact fields")
        func fourSets() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml")
            #expect(profiles.map(\.iBeacon!.minor) == [0, 1, 2, 3])
            #expect(Set(profiles.map(\.address)).count == 4, "four distinct addresses")
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let plan = try await fleet.plan(profiles)
                let adapter = try #require(plan.adapters.first)
                #expect(adapter.mode == .extendedSets)
                #expect(adapter.advertisers.map(\.handle) == [0, 1, 2, 3])
                #expect(adapter.advertisers.map { $0.beacons.map(\.name) } == profiles.map { [$0.name] })
                let started = BumbleLink.now()
                try await fleet.advertise(profiles, for: .milliseconds(800))
                let program = try #require(plan.adapters.first.map { AdvertisingProgram(plan: $0, controllerTimedTurns: true) })
                #expect(program.slots.isEmpty, "nothing rotates")
                await harness.expectWire(FleetHarness.expectedCommands(program, slots: []))

                // Handle i got beacon i's address and data, with legacy non-connectable properties.
                let addresses = link.commands(opcode: 0x2035).map(\.parameters)
                #expect(addresses.map { Hex.string($0) } == profiles.enumerated().map { "0\($0.offset)" + Hex.string(littleEndian($0.element.address)) })
                for p in link.commands(opcode: 0x2036) { #expect(Array(p.parameters[1...2]) == [0x10, 0x00]) }

                let advs = link.advs(since: started)
                let first = BeaconExpectations.checkAll(advs, from: profiles)
                #expect(Set(first.keys) == Set(profiles.map(\.name)), "received: \(first.keys.sorted())")
                for p in profiles {
                    let count = advs.filter { $0.address == p.address.description }.count
                    #expect(count >= 4, "\(p.name): about 8 events in 800 ms at 100 ms; got \(count)")
                }
            }
        }
    }
}
