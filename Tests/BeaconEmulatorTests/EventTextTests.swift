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

    /// Two front ends in one process name the stopped event's advice, and the controller error
    /// it carries, each their own way: no library holds either's names.
    @Test func twoFrontEndsInOneProcessNameAStoppedEventTheirOwnWay() {
        let refused = HCICommandError.failed(command: "LE Set Extended Advertising Enable", opcode: HCIOpcode(rawValue: 0x2039),
                                             status: .commandDisallowed)
        let event = EmulatorEvent.stopped(adapter: "hci1", teardown: .incomplete(mayBeOnAir: ["lobby"], reason: "\(refused)"))
        let cli: (FrontEndTerm) -> String? = { term in
            switch term {
            case .stop: "`beacon stop`"
            case .stopOn(let adapter): "`beacon stop -i \(adapter)`"
            default: nil
            }
        }
        let page: (FrontEndTerm) -> String? = { term in
            switch term {
            case .stop: "Stop"
            case .stopOn(let adapter): "Stop on \(adapter)"
            default: nil
            }
        }
        let forCLI = event.termedText.text(namedBy: cli)
        let forPage = event.termedText.text(namedBy: page)
        #expect(forCLI.hasPrefix("hci1: the teardown failed (LE Set Extended Advertising Enable (0x08|0x0039) failed: Command Disallowed (0x0C): "), "\(forCLI)")
        #expect(forCLI.contains("Run `beacon stop` (or reset the adapter)") && forCLI.hasSuffix("lobby may still be on air; run `beacon stop -i hci1`"), "\(forCLI)")
        #expect(forPage.contains("Run Stop (or reset the adapter)") && forPage.hasSuffix("lobby may still be on air; run Stop on hci1"), "\(forPage)")
        #expect(!forPage.contains("beacon stop"), "\(forPage)")
        #expect(event.termedText.text(namedBy: cli) == forCLI, "the page's names changed nothing for the command line")
        #expect(event.description == event.termedText.text(namedBy: { _ in nil }))
    }
}
