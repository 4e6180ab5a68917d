// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import HCI

/// The commands of controller-timed turns: sets enabled with their events per turn, no disable
/// for a set the controller already stopped, an enable whenever a limit must be re-armed or lifted.
@Suite struct ControllerTimedProgramTests {
    /// 8 beacons on 4 sets, 100 ms turns at their 100 ms interval: one event per turn.
    func rotation() -> AdapterPlan {
        FleetPlanner(slotDuration: .milliseconds(100)).plan(beacons(8), on: [extended(4)]).adapters[0]
    }

    func enables(_ commands: [any HCICommand]) -> [LESetExtendedAdvertisingEnable] {
        commands.compactMap { $0 as? LESetExtendedAdvertisingEnable }
    }

    @Test func rotatingSetsAreEnabledWithTheirEventsPerTurn() {
        let program = AdvertisingProgram(plan: rotation(), controllerTimedTurns: true)
        #expect(names(program.preamble) == ["Set Event Mask", "LE Set Event Mask", "LE Set Extended Advertising Enable", "LE Clear Advertising Sets"])
        let setup = enables(program.setup)
        #expect(setup.count == 1)
        #expect(setup[0].sets.map(\.maxExtendedAdvertisingEvents) == [1, 1, 1, 1])
        // Host-timed slots (what is sent when no set has stopped): one disable, one enable with the limits.
        for slot in program.slots {
            #expect(enables(slot).map(\.isEnabled) == [false, true])
            #expect(enables(slot)[1].sets.map(\.maxExtendedAdvertisingEvents) == [1, 1, 1, 1])
        }
        // Without controller timing, as before: no masks, no limits.
        let plain = AdvertisingProgram(plan: rotation())
        #expect(names(plain.preamble) == ["LE Set Extended Advertising Enable", "LE Clear Advertising Sets"])
        #expect(enables(plain.setup)[0].sets.map(\.maxExtendedAdvertisingEvents) == [0, 0, 0, 0])
    }

    @Test func setsTheControllerStoppedNeedNoDisable() {
        let states = AdvertisingProgram.states(of: rotation())
        let steps = AdvertisingProgram.steps(from: states[0], to: states[1], extended: true, limitEvents: true, stopped: [0, 2])
        let disables = enables(steps).filter { !$0.isEnabled }
        #expect(disables.map { $0.sets.map(\.handle) } == [[1, 3]], "only the sets still running")
        #expect(enables(steps).filter(\.isEnabled).map { $0.sets.map(\.handle) } == [[0, 1, 2, 3]])
        // All stopped: no disable at all.
        let none = AdvertisingProgram.steps(from: states[0], to: states[1], extended: true, limitEvents: true, stopped: [0, 1, 2, 3])
        #expect(enables(none).map(\.isEnabled) == [true])
    }

    @Test func aLiftedLimitIsAnEnableEvenWhenNothingElseChanges() {
        // A rotating beacon's set whose next plan keeps the same beacon on it, always on air: it
        // may have stopped (or would stop after its events), so it is enabled again, without a limit.
        var limited = AdvertisingSetConfiguration(handle: 0, beacon: beacons(1)[0])
        limited.eventsPerTurn = 2
        var always = limited
        always.eventsPerTurn = 0
        let steps = AdvertisingProgram.steps(from: [0: limited], to: [0: always], extended: true, limitEvents: true, stopped: [0])
        #expect(names(steps) == ["LE Set Extended Advertising Enable"])
        #expect(enables(steps)[0].isEnabled && enables(steps)[0].sets == [.init(handle: 0, maxExtendedAdvertisingEvents: 0)])
        // And a limited set carrying the same beacon again is re-armed with its limit.
        let again = AdvertisingProgram.steps(from: [0: limited], to: [0: limited], extended: true, limitEvents: true)
        #expect(enables(again).map(\.sets) == [[.init(handle: 0, maxExtendedAdvertisingEvents: 2)]])
    }
}
