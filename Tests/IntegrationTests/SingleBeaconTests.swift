// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import Foundation
import HCI
import Testing

extension BumbleIntegration {
    /// profiles/bm1.yaml on Bumble: through the legacy advertiser and through one extended set.
    @Suite("One BM1 beacon")
    struct SingleBeaconTests {
        @Test("legacy advertiser: exact beacon from the profile's address, ADV_NONCONN_IND")
        func legacy() async throws {
            let profiles = try BeaconExpectations.shipped("bm1.yaml")
            let bm1 = try #require(profiles.first)
            #expect(profiles.count == 1)
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet(FleetPlanner(forceLegacy: true))
                let plan = try await fleet.plan(profiles)
                #expect(plan.adapters.map(\.mode) == [.legacy])
                let started = BumbleLink.now()
                try await fleet.advertise(profiles, for: .milliseconds(600))
                let program = try #require(plan.adapters.first.map { AdvertisingProgram(plan: $0, controllerTimedTurns: true) })
                await harness.expectWire(FleetHarness.expectedCommands(program, slots: []))

                // The controller was told ADV_NONCONN_IND (type 0x03, parameter byte 4) from a random
                // address (own address type 0x01, byte 5): Bumble's scanner is not trusted for that.
                let parameters = try #require(link.commands(opcode: 0x2006).last)
                #expect(parameters.parameters.count == 15)
                #expect(parameters.parameters[4] == 0x03, "Advertising_Type ADV_NONCONN_IND")
                #expect(parameters.parameters[5] == 0x01, "Own_Address_Type random")
                #expect(Array(parameters.parameters[0..<4]) == [0xA0, 0x00, 0xA0, 0x00], "100 ms = 0x00A0 units")
                let address = try #require(link.commands(opcode: 0x2005).last)
                #expect(Hex.string(address.parameters) == Hex.string(littleEndian(bm1.address)), "LE Set Random Address")

                let received = link.advs(since: started).filter { $0.address == bm1.address.description }
                #expect(received.count >= 3, "about 6 events in 600 ms at 100 ms; got \(received.count)")
                let first = BeaconExpectations.checkAll(received, from: profiles)
                #expect(first[bm1.name] != nil)
                #expect(bm1.iBeacon!.uuid == BeaconUUID("B9D4719F-A407-42FA-A365-1B6B03AE00CF"))
                #expect((bm1.iBeacon!.major, bm1.iBeacon!.minor, bm1.iBeacon!.measuredPower) == (1, 1, -52))
            }
        }

        @Test("extended set: exact beacon, legacy non-connectable event properties 0x0010")
        func extended() async throws {
            let profiles = try BeaconExpectations.shipped("bm1.yaml")
            let bm1 = try #require(profiles.first)
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let plan = try await fleet.plan(profiles)
                #expect(plan.adapters.map(\.mode) == [.extendedSets])
                let started = BumbleLink.now()
                try await fleet.advertise(profiles, for: .milliseconds(600))
                let program = try #require(plan.adapters.first.map { AdvertisingProgram(plan: $0, controllerTimedTurns: true) })
                await harness.expectWire(FleetHarness.expectedCommands(program, slots: []))

                // LE Set Extended Advertising Parameters: handle 0, then Advertising_Event_Properties
                // 0x0010 little-endian: legacy PDUs, neither connectable nor scannable = ADV_NONCONN_IND.
                let parameters = try #require(link.commands(opcode: 0x2036).last)
                #expect(parameters.parameters[0] == 0x00, "handle 0")
                #expect(Array(parameters.parameters[1...2]) == [0x10, 0x00], "event properties 0x0010")
                // tx_power: 0 in the profile goes to the controller as Advertising_TX_Power (byte 19 of 25).
                #expect(parameters.parameters.count == 25)
                #expect(parameters.parameters[19] == 0x00)
                // The set's random address (LE Set Advertising Set Random Address: handle, address LSB first).
                let address = try #require(link.commands(opcode: 0x2035).last)
                #expect(Hex.string(address.parameters) == "00" + Hex.string(littleEndian(bm1.address)))

                let received = link.advs(since: started).filter { $0.address == bm1.address.description }
                #expect(received.count >= 3, "about 6 events in 600 ms at 100 ms; got \(received.count)")
                let first = BeaconExpectations.checkAll(received, from: profiles)
                #expect(first[bm1.name] != nil)
            }
        }
    }
}

/// The six address bytes least significant first, as HCI carries them.
func littleEndian(_ address: BluetoothAddress) -> [UInt8] {
    (0..<6).map { UInt8(truncatingIfNeeded: address.value >> (8 * UInt64($0))) }
}
