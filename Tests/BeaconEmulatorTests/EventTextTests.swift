// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import Testing

/// The library's words for events and outcomes, which every front end prints.
@Suite struct EventTextTests {
    @Test func anOutcomeNamesWhatMayStillBeOnAirAndWhere() {
        let outcome = FleetOutcome(failure: "hci1: the controller stopped answering", teardowns: [
            AdapterTeardown(adapter: "hci0", teardown: .clean),
            AdapterTeardown(adapter: "hci1", teardown: .incomplete(mayBeOnAir: ["lobby", "stairs"], reason: "timeout")),
        ])
        #expect(!outcome.isClean)
        #expect(outcome.leftOnAir == [LeftOnAir(adapter: "hci1", beacons: ["lobby", "stairs"], reason: "timeout")])
        #expect(outcome.description.hasPrefix("hci1: the controller stopped answering. The teardown on hci1 failed, so lobby, stairs may still be on air: run "),
                "\(outcome)")
        #expect(!outcome.description.contains("hci0"), "\(outcome)")
        // The stop it advises is a term, for each front end to name.
        #expect(outcome.termedText.pieces.contains(.term(.stopOn(adapter: "hci1"))), "\(outcome.termedText.pieces)")
        #expect(FleetOutcome(failure: nil, teardowns: [AdapterTeardown(adapter: "hci0", teardown: .clean)]).isClean)
    }

    @Test func onlyLateTurnsAndNotAppliedUpdatesAreNews() {
        #expect(!EmulatorEvent.slot(adapter: "hci0", index: 4, commands: 1, lateness: .milliseconds(20)).isNews)
        let late = EmulatorEvent.slot(adapter: "hci0", index: 4, commands: 1, lateness: .milliseconds(35))
        #expect(late.isNews && late.description == "hci0: turn 4 started 35 ms late")
        #expect(!EmulatorEvent.applied(generation: 3, adapter: "hci0").isNews)
        #expect(EmulatorEvent.stopped(adapter: "mgmt:hci0", teardown: .clean).description
            == "mgmt:hci0: advertising stopped (beacon's instances removed; other programs' instances left as they were)")
        #expect(EmulatorEvent.stopped(adapter: "hci0", teardown: .nothingSent).description == "hci0: nothing was sent to the controller, nothing to undo")
    }
}
