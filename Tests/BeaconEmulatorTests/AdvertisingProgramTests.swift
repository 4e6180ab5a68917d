// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import HCI

@Suite struct AdvertisingProgramTests {
    @Test func staticSetsAreSetUpOnceAndEnabledTogether() {
        let plan = FleetPlanner().plan(beacons(2), on: [extended(4)]).adapters[0]
        let program = AdvertisingProgram(plan: plan)
        #expect(names(program.preamble) == ["LE Set Extended Advertising Enable", "LE Clear Advertising Sets"])
        #expect(names(program.setup) == [
            "LE Set Extended Advertising Parameters", "LE Set Extended Advertising Parameters",
            "LE Set Advertising Set Random Address", "LE Set Advertising Set Random Address",
            "LE Set Extended Advertising Data", "LE Set Extended Advertising Data",
            "LE Set Extended Advertising Enable",
        ])
        #expect(program.slots.isEmpty)
        let params = program.setup[0] as! LESetExtendedAdvertisingParameters
        #expect(params.eventProperties.rawValue == 0x0010)  // legacy PDUs, non-connectable: ADV_NONCONN_IND
        #expect(params.intervalMin == 160 && params.intervalMax == 160)
        #expect(params.ownAddressType == .random)
        let address = program.setup[2] as! LESetAdvertisingSetRandomAddress
        #expect(address.address == beacons(2)[0].address)
        let data = program.setup[4] as! LESetExtendedAdvertisingData
        #expect(data.data == Array(beacons(1)[0].beacon.advertisingData()))
        let enable = program.setup[6] as! LESetExtendedAdvertisingEnable
        #expect(enable.isEnabled && enable.sets.map(\.handle) == [0, 1])
        #expect(names(program.teardown) == ["LE Set Extended Advertising Enable", "LE Clear Advertising Sets"])
    }

    @Test func moreThan63SetsAreEnabledAndDisabledInSeveralCommands() throws {
        // 160 beacons on a 240-set controller: one set each, enabled in commands of 63, 63, 34.
        let plan = FleetPlanner().plan(beacons(160), on: [extended(240)]).adapters[0]
        #expect(plan.mode == .extendedSets)
        let program = AdvertisingProgram(plan: plan)
        let enables = program.setup.compactMap { $0 as? LESetExtendedAdvertisingEnable }
        #expect(enables.map(\.sets.count) == [63, 63, 34])
        #expect(enables.allSatisfy { $0.isEnabled })
        #expect(enables.flatMap { $0.sets.map(\.handle) } == (0..<160).map(UInt8.init))
        let info = extended(240).hciInfo
        for command in program.allCommands { try command.validate(for: info) }
        // Taking 100 of them off in one step: two disables, then their removal.
        var fewer = program.states[0]
        for h in UInt8(0)..<100 { fewer[h] = nil }
        let steps = AdvertisingProgram.steps(from: program.states[0], to: fewer, extended: true)
        #expect(steps.compactMap { $0 as? LESetExtendedAdvertisingEnable }.map(\.sets.count) == [63, 37])
        for command in steps { try command.validate(for: info) }
    }

    @Test func rotationWithOwnAddressesRestartsOnlyTheSetsThatChange() {
        // 6 beacons on 4 sets: sets 0 and 1 rotate (2 beacons each), sets 2 and 3 stay.
        let plan = FleetPlanner(slotDuration: .milliseconds(300)).plan(beacons(6), on: [extended(4)]).adapters[0]
        let program = AdvertisingProgram(plan: plan)
        #expect(program.slots.count == 2)
        for slot in program.slots {
            #expect(names(slot) == [
                "LE Set Extended Advertising Enable",  // disable sets 0 and 1
                "LE Set Advertising Set Random Address", "LE Set Advertising Set Random Address",
                "LE Set Extended Advertising Data", "LE Set Extended Advertising Data",
                "LE Set Extended Advertising Enable",  // enable sets 0 and 1
            ])
            let off = slot[0] as! LESetExtendedAdvertisingEnable
            #expect(!off.isEnabled && off.sets.map(\.handle) == [0, 1])
        }
    }

    @Test func sharedAddressRotationSendsDataOnly() {
        let plan = FleetPlanner(shareAddresses: true).plan(beacons(8), on: [extended(4)]).adapters[0]
        let program = AdvertisingProgram(plan: plan)
        #expect(program.slots.map(\.count) == [4, 4])
        #expect(program.slots.allSatisfy { names($0) == Array(repeating: "LE Set Extended Advertising Data", count: 4) })
    }

    @Test func differentIntervalsNeedNewParametersWhileDisabled() {
        var fleet = beacons(2)
        fleet[1].intervalMilliseconds = 200
        let plan = FleetPlanner(slotDuration: .milliseconds(600)).plan(fleet, on: [extended(1)]).adapters[0]
        let slot = AdvertisingProgram(plan: plan).slots[1]
        #expect(names(slot) == [
            "LE Set Extended Advertising Enable", "LE Set Extended Advertising Parameters",
            "LE Set Advertising Set Random Address", "LE Set Extended Advertising Data", "LE Set Extended Advertising Enable",
        ])
    }

    @Test func legacyRotation() {
        let plan = FleetPlanner().plan(beacons(3), on: [.assumedLegacy(adapter: "old")]).adapters[0]
        let program = AdvertisingProgram(plan: plan)
        #expect(names(program.preamble) == ["LE Set Advertising Enable"])
        #expect(names(program.setup) == ["LE Set Random Address", "LE Set Advertising Parameters", "LE Set Advertising Data", "LE Set Advertising Enable"])
        #expect(program.slots.count == 3)
        #expect(program.slots.allSatisfy { names($0) == ["LE Set Advertising Enable", "LE Set Random Address", "LE Set Advertising Data", "LE Set Advertising Enable"] })
        let params = program.setup[1] as! LESetAdvertisingParameters
        #expect(params.advertisingType == .nonConnectableUndirected)
        #expect(params.ownAddressType == .random)
        let shared = AdvertisingProgram(plan: FleetPlanner(shareAddresses: true).plan(beacons(3), on: [.assumedLegacy(adapter: "old")]).adapters[0])
        #expect(shared.slots.allSatisfy { names($0) == ["LE Set Advertising Data"] })
    }

    @Test func stepsBetweenArbitraryStatesAddAndRemoveSets() {
        let all = beacons(3)
        let a = AdvertisingSetConfiguration(handle: 0, beacon: all[0])
        let b = AdvertisingSetConfiguration(handle: 1, beacon: all[1])
        let c = AdvertisingSetConfiguration(handle: 2, beacon: all[2])
        let steps = AdvertisingProgram.steps(from: [0: a, 1: b], to: [0: a, 2: c], extended: true)
        #expect(names(steps) == [
            "LE Set Extended Advertising Enable", "LE Remove Advertising Set",
            "LE Set Extended Advertising Parameters", "LE Set Advertising Set Random Address", "LE Set Extended Advertising Data",
            "LE Set Extended Advertising Enable",
        ])
        #expect(AdvertisingProgram.steps(from: [0: a], to: [0: a], extended: true).isEmpty)
    }
}
