// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import HCI
import Testing

/// A program's sections (what a dry run lists) and the check a run makes before sending.
@Suite struct ProgramListingTests {
    @Test func staticSetsArePreambleSetupTeardown() {
        let program = AdvertisingProgram(plan: FleetPlanner().plan(beacons(2), on: [extended(4)]).adapters[0])
        let sections = program.sections
        #expect(sections.map(\.key) == ["preamble", "setup", "teardown"])
        #expect(sections[1].title == "setup: slot 0 on air (set 0 b0, set 1 b1)")
        #expect(sections.flatMap(\.commands).map(\.h4Bytes) == (program.preamble + program.setup + program.teardown).map(\.h4Bytes))
    }

    /// Beacons taking turns: every slot of one cycle, ending back at slot 0.
    @Test func turnsListEverySlotAndBackToTheFirst() {
        let program = AdvertisingProgram(plan: FleetPlanner(forceLegacy: true).plan(beacons(3), on: [.assumedLegacy(adapter: "hci0")]).adapters[0])
        #expect(program.sections.map(\.key) == ["preamble", "setup", "slot 1", "slot 2", "slot 0", "teardown"])
        #expect(program.onAir(slot: 1) == "b1")
        #expect(program.sections[2].title == "slot 1: b1")
    }

    @Test func aControllerThatWouldRefuseACommandIsNamed() throws {
        // 30 ms is below a Bluetooth 4.2 controller's 100 ms for non-connectable advertising.
        let old = ControllerCapabilities.assumedLegacy(adapter: "hci3")
        let program = AdvertisingProgram(plan: FleetPlanner(forceLegacy: true).plan(beacons(1, interval: 30), on: [.assumedLegacy(adapter: "hci3", version: .v5_0)]).adapters[0])
        #expect(throws: Never.self) { try CommandRefusal.check(program.allCommands, for: .assumedLegacy(adapter: "hci3", version: .v5_0)) }
        do throws(CommandRefusal) {
            try CommandRefusal.check(program.allCommands, for: old)
            Issue.record("not refused")
        } catch {
            #expect(error.adapter == "hci3" && error.command == "LE Set Advertising Parameters")
            #expect(error.description.hasPrefix("hci3: LE Set Advertising Parameters would be refused: "), "\(error)")
        }
    }
}
