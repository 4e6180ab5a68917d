// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import Testing

extension BumbleIntegration {
    /// More beacons than advertisers: the plan rotates, every beacon gets its turn, and each slot
    /// sends only the commands the change needs.
    @Suite("Rotation")
    struct RotationTests {
        @Test("40 beacons on 4 sets: all received within a cycle, 10 commands per slot")
        func fortyOnFourSets() async throws {
            let profiles = BeaconExpectations.generated(40)
            #expect(Set(profiles.map(\.address)).count == 40)
            try await withBumble(["--max-sets", "4"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let plan = try await fleet.plan(profiles)
                let adapter = try #require(plan.adapters.first)
                #expect(adapter.mode == .extendedRotation)
                #expect(adapter.advertisers.count == 4)
                #expect(adapter.slotsPerCycle == 10)
                // Ten turns per set, each as long as the 1 s goal allows once the turn's 10
                // commands at the command time the probe measured (at least 1 ms) and the first
                // event's advDelay are budgeted: just under 100 ms, one event per turn at the
                // beacons' own 100 ms interval (each set is enabled anew for each turn).
                let timing = adapter.turnTiming
                #expect(timing.commands == 10 && timing.commandTime >= FleetPlanner.assumedCommandTime)
                let expected = timing.longestTurn(meeting: .seconds(1), turns: 10)
                #expect(abs((adapter.slotDuration - expected) / .microseconds(1)) <= 1, "\(adapter.slotDuration) vs \(expected)")
                #expect(adapter.slotDuration < .milliseconds(100) && adapter.cycleDuration == adapter.slotDuration * 10)
                #expect(plan.adapters[0].advertisers.flatMap(\.beacons).allSatisfy { adapter.onAirInterval(of: $0) == AdvertisingInterval(milliseconds: 100) })
                #expect(plan.meetsGoal)
                let program = try #require(plan.adapters.first.map { AdvertisingProgram(plan: $0, controllerTimedTurns: true) })
                // Every beacon has its own address, so each set is restarted each slot: one disable
                // for all sets, an address and data per set, one enable for all. Parameters stay.
                // (The enable asks for the turn's events, but Bumble 0.0.236 ignores
                // Max_Extended_Advertising_Events and never stops a set: the host times every
                // turn, so every slot starts with the disable.)
                let perSlot = 1 + 2 * adapter.advertisers.count + 1
                #expect(program.slots.count == 10)
                for (k, slot) in program.slots.enumerated() {
                    #expect(slot.count == perSlot, "slot \(k): \(slot.count) commands")
                    #expect(slot.map { type(of: $0).opcode.rawValue } == [0x2039, 0x2035, 0x2035, 0x2035, 0x2035, 0x2037, 0x2037, 0x2037, 0x2037, 0x2039])
                }
                try await runAndCheckRotation(harness, plan: plan, fleet: fleet, profiles: profiles, perSlot: perSlot)
            }
        }

        @Test("40 beacons on 4 sets sharing an address per set: one data command per set and slot")
        func fortyOnFourSetsSharedAddress() async throws {
            let profiles = BeaconExpectations.generated(40, firstMinor: 500)
            try await withBumble(["--max-sets", "4"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                // Data swapped while a set stays enabled reaches the air at the set's next event, not
                // at once as after an enable: 400 ms turns (a 4 s cycle) give each beacon several
                // events per turn, so a busy machine that delays the harness's timers by tens of
                // milliseconds cannot cost a beacon its only event.
                let fleet = harness.fleet(FleetPlanner(shareAddresses: true, maximumSilence: .seconds(4)))
                let plan = try await fleet.plan(profiles)
                let adapter = try #require(plan.adapters.first)
                #expect(adapter.mode == .extendedRotation)
                let shared = adapter.advertisers.map(\.sharedAddress)
                #expect(shared == adapter.advertisers.map { $0.beacons.first?.address }, "each set keeps its first beacon's address")
                let program = try #require(plan.adapters.first.map { AdvertisingProgram(plan: $0, controllerTimedTurns: true) })
                // Address and parameters never change, so a slot is only new data for each set,
                // replaced while the set stays enabled (Operation 0x03, Core Vol 4 Part E §7.8.54).
                for (k, slot) in program.slots.enumerated() {
                    #expect(slot.map { type(of: $0).opcode.rawValue } == [0x2037, 0x2037, 0x2037, 0x2037], "slot \(k)")
                }
                var addresses: [String: String] = [:]
                for a in adapter.advertisers { for b in a.beacons { addresses[b.name] = a.sharedAddress?.description } }
                try await runAndCheckRotation(harness, plan: plan, fleet: fleet, profiles: profiles, perSlot: 4, addresses: addresses)
                // Each set was enabled once (setup) and disabled once (teardown): nothing in between.
                #expect(link.commands(opcode: 0x2039).count == 3, "disable-all (preamble), enable (setup), disable-all (teardown)")
            }
        }

        @Test("legacy-only controller: 4 beacons rotate on the one advertiser, 4 commands per slot")
        func legacyRotation() async throws {
            let profiles = BeaconExpectations.generated(4, firstMinor: 100)
            try await withBumble(["--no-extended"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let plan = try await fleet.plan(profiles)
                let adapter = try #require(plan.adapters.first)
                #expect(adapter.mode == .legacy)
                #expect(adapter.slotsPerCycle == 4)
                let program = try #require(plan.adapters.first.map { AdvertisingProgram(plan: $0, controllerTimedTurns: true) })
                for (k, slot) in program.slots.enumerated() {
                    // disable, LE Set Random Address, LE Set Advertising Data, enable.
                    #expect(slot.map { type(of: $0).opcode.rawValue } == [0x200A, 0x2005, 0x2008, 0x200A], "slot \(k)")
                }
                try await runAndCheckRotation(harness, plan: plan, fleet: fleet, profiles: profiles, perSlot: 4)
                // Only legacy commands went out after the probe.
                let program0 = link.commands().drop { probeOpcodes.contains($0.opcode) }
                #expect(program0.allSatisfy { [0x200A, 0x2005, 0x2006, 0x2008].contains($0.opcode) })
                for p in link.commands(opcode: 0x2006) { #expect(p.parameters[4] == 0x03, "ADV_NONCONN_IND") }
            }
        }

        @Test("station-160 on 16 sets: all 160 beacons received within a cycle with exact fields")
        func station() async throws {
            let profiles = try BeaconExpectations.shipped("station-160.yaml")
            #expect(profiles.count == 160)
            #expect(Set(profiles.map(\.address)).count == 160)
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let plan = try await fleet.plan(profiles)
                let adapter = try #require(plan.adapters.first)
                #expect(adapter.mode == .extendedRotation)
                #expect(adapter.advertisers.count == 16)
                #expect(adapter.advertisers.allSatisfy { $0.beacons.count == 10 })
                try await runAndCheckRotation(harness, plan: plan, fleet: fleet, profiles: profiles, perSlot: 1 + 2 * 16 + 1)
            }
        }
    }
}

/// Runs one full cycle (plus half a slot, so the last slot and the teardown are apart), then
/// checks: the wire is exactly the program; each slot takes `perSlot` commands; every
/// beacon was received, with its exact fields, within its turn of the first cycle.
func runAndCheckRotation(_ harness: FleetHarness, plan fleetPlan: FleetPlan, fleet: RunningFleet, profiles: [BeaconProfile], perSlot: Int,
                         addresses: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
    let link = harness.link
    let plan = try #require(fleetPlan.adapters.first, sourceLocation: sourceLocation)
    let program = AdvertisingProgram(plan: plan, controllerTimedTurns: true)
    try await fleet.advertise(profiles, for: plan.cycleDuration + plan.slotDuration / 2)
    let slots = harness.recorder.slotIndices
    #expect(slots == Array(1...plan.slotsPerCycle), "slots carried out: \(slots)", sourceLocation: sourceLocation)
    #expect(harness.recorder.errors.isEmpty, "\(harness.recorder.errors)", sourceLocation: sourceLocation)
    let wire = await harness.expectWire(FleetHarness.expectedCommands(program, slots: slots), sourceLocation: sourceLocation)

    // Per slot on the wire: after the preamble and setup, `perSlot` commands per slot, then the
    // teardown. (The wire already equals the program; this pins the economy of a slot.)
    let head = program.preamble.count + program.setup.count
    let rotation = Array(wire.dropFirst(head).dropLast(program.teardown.count))
    let slotBursts = stride(from: 0, to: rotation.count, by: perSlot).map { Array(rotation[$0..<min($0 + perSlot, rotation.count)]) }
    #expect(program.slots.allSatisfy { $0.count == perSlot }, "commands per slot in the program", sourceLocation: sourceLocation)
    #expect(rotation.count == slots.count * perSlot, sourceLocation: sourceLocation)

    // On air: the setup's last command (the enable) starts slot 0, and slot k starts with its
    // burst on the wire; beacon b of advertiser a goes on air in slot k = its index and must be
    // first received during that turn. Turns are measured on the wire, not on a timer, so a busy
    // machine that makes a turn late does not make the test fail; the small margin is for the
    // harness reporting a reception after it logged the next command.
    let onAir = try #require(wire.dropFirst(head - 1).first?.time, sourceLocation: sourceLocation)
    let first = BeaconExpectations.checkAll(link.advs(since: onAir - 0.05), from: profiles, addresses: addresses, sourceLocation: sourceLocation)
    let turnStarts = [onAir] + slotBursts.compactMap { $0.first?.time }
    let teardownStart = wire.dropFirst(head + rotation.count).first?.time ?? .infinity
    let margin = 0.05
    var late: [String] = []
    for placement in fleetPlan.placements {
        guard let seen = first[placement.beacon.name], placement.slot < turnStarts.count else { continue }
        let start = turnStarts[placement.slot]
        let end = placement.slot + 1 < turnStarts.count ? turnStarts[placement.slot + 1] : teardownStart
        if seen < start - margin || seen > end + margin {
            late.append("\(placement.beacon.name) at +\(seen - onAir) s, its turn +\(start - onAir)…+\(end - onAir) s")
        }
    }
    let missing = profiles.map(\.name).filter { first[$0] == nil }
    #expect(missing.isEmpty, "never received: \(missing)", sourceLocation: sourceLocation)
    #expect(late.isEmpty, "first received outside their turn: \(late)", sourceLocation: sourceLocation)
    #expect(try await link.requestSets().isClean, sourceLocation: sourceLocation)
}
