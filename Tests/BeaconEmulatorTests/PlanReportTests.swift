// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import HCI
import Testing

/// A plan's text and JSON (what `advertise --plan` and a run's start print) and the dry-run
/// listing of its commands, reached without the binary.
@Suite struct PlanReportTests {
    @Test func aSmallFleetGetsTheSummaryAndItsTable() {
        let plan = FleetPlanner().plan(beacons(2), on: [extended(4)])
        let lines = PlanReport.summary(plan, tableOmitted: "unused", namedBy: { _ in nil })
        #expect(lines[0].hasPrefix("plan: 2 beacons on 1 adapter; each beacon on air at least every "), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  test: extended sets on 2 of 4 sets (Bluetooth 5.0)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("BEACON") && $0.contains("MAX-GAP") })
        #expect(lines.last?.hasPrefix("b1") == true, "\(lines)")
        #expect(!lines.contains("  (unused)"))
    }

    @Test func aLargeFleetNamesHowToGetTheTableInTheFrontEndsWords() {
        let plan = FleetPlanner().plan(beacons(PlanReport.tableWithoutAsking + 1), on: [extended(16)])
        let lines = PlanReport.summary(plan, tableOmitted: "press t for the table", namedBy: { _ in nil })
        #expect(lines.last == "  (press t for the table)")
        #expect(!lines.contains { $0.hasPrefix("BEACON") })
        #expect(PlanReport.summary(plan, verbose: true, tableOmitted: "x", namedBy: { _ in nil }).count == lines.count - 1 + 1 + plan.placements.count)
    }

    @Test func noBeaconsIsOneLine() {
        #expect(PlanReport.summary(FleetPlanner().plan([], on: [extended(4)]), tableOmitted: "x", namedBy: { _ in nil }) == ["plan: no beacons on air"])
    }

    @Test func turnsAreNamedInTheTableAndTheJSON() {
        let plan = FleetPlanner(forceLegacy: true).plan(beacons(3), on: [.assumedLegacy(adapter: "hci0")])
        let rows = PlanReport.table(plan).rows
        #expect(rows.map { $0[2] } == ["legacy", "legacy", "legacy"])
        #expect(rows.map { $0[3] } == ["1 of 3", "2 of 3", "3 of 3"])
        let json = PlanReport.json(plan, namedBy: { _ in nil })
        #expect(json.members?.map(\.0).prefix(2) == ["adapters", "beacons"])
        #expect(json.text.ranges(of: #"{"beacon":"b"#).count == 3, "one object a beacon")
        #expect(json.text.contains(#""mode":"legacy""#) && json.text.contains(#""rotates":true"#), "\(json.text)")
    }

    @Test func theDryRunListsEveryCommandAsCommentH4AndHcitoolLine() throws {
        let plan = FleetPlanner().plan(beacons(1), on: [extended(4, adapter: "virtual")])
        var text: [String] = []
        try DryRunListing(hcitoolAdapter: "hci2").list(plan, summary: ["plan: one"], json: false) { text.append($0) }
        #expect(Array(text.prefix(2)) == ["# dry run: no adapter is opened, nothing is sent", "# plan: one"])
        #expect(text[2] == "#\n# == virtual: preamble: nothing on air, no sets (whatever an earlier run left)")
        let program = AdvertisingProgram(plan: plan.adapters[0])
        let commands = program.allCommands.count
        #expect(text.filter { $0.hasPrefix("hcitool -i hci2 cmd 0x08 ") }.count == commands, "a virtual adapter is named as -i's hci")
        #expect(text.filter { !$0.hasPrefix("#\n") }.count == 2 + 3 * commands, "three lines a command")
        var json: [String] = []
        try DryRunListing(hcitoolAdapter: "hci2").list(plan, summary: ["plan: one"], json: true) { json.append($0) }
        #expect(json.count == commands)
        #expect(json.allSatisfy { $0.hasPrefix(#"{"adapter":"virtual","section":""#) })
    }

    @Test func anHCIAdapterNamesItselfInItsHcitoolLines() throws {
        let plan = FleetPlanner().plan(beacons(1), on: [extended(4, adapter: "hci1")])
        var text: [String] = []
        try DryRunListing(hcitoolAdapter: "hci0").list(plan, summary: [], json: false) { text.append($0) }
        #expect(text.contains { $0.hasPrefix("hcitool -i hci1 cmd ") } && !text.contains { $0.hasPrefix("hcitool -i hci0 ") })
    }

    @Test func aRefusedCommandStopsTheListingAfterTheHeading() {
        let plan = FleetPlanner(forceLegacy: true).plan(beacons(1, interval: 30), on: [.assumedLegacy(adapter: "hci3", version: .v5_0)])
        // The plan was made for a 5.0 controller; a 4.2 one refuses its 30 ms interval.
        var refused = plan
        refused.adapters[0].capabilities = .assumedLegacy(adapter: "hci3")
        var text: [String] = []
        #expect(throws: CommandRefusal.self) {
            try DryRunListing(hcitoolAdapter: "hci0").list(refused, summary: [], json: false) { text.append($0) }
        }
        #expect(text == ["# dry run: no adapter is opened, nothing is sent"])
    }
}
