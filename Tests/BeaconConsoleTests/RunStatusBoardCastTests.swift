// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios
import Testing

/// `play`'s view keeps a scenario's beacon that a step hides: its row stays, `off air since`
/// the hide, with the adapter it was on and its turns, until it comes back on air; a beacon
/// not yet on air has a row too. The player's step and the fleet's new plan come in either
/// order. Without a scenario (advertise's reload) a beacon the plan drops loses its row.
@Suite struct RunStatusBoardCastTests {
    static func plan(_ timeline: ScenarioTimeline, at time: Double) -> FleetPlan {
        FleetPlanner().plan(timeline.state(at: time).onAir, on: [.assumedExtended(adapter: "hci0", sets: 4)])
    }

    /// `name state adapter turns` of each row.
    static func rows(_ board: RunStatusBoard) -> [String] {
        board.rows.map { "\($0.beacon) \($0.state) \($0.adapter) \($0.turns)" }
    }

    static func onAir(_ name: BeaconName, _ timeline: ScenarioTimeline) -> EmulatorEvent {
        let address = timeline.scenario.fleet.beacons.first { $0.beaconName == name }?.address ?? .init(0)
        return .onAir(beacon: name, adapter: "hci0", advertiser: 1, address: address, selectedTxPower: nil)
    }

    /// `door` on air and `desk` hidden; at 3 s they swap; each 6 s pass starts over.
    @Test func aHiddenBeaconStaysOffAirUntilItComesBack() {
        let t = PlaybackProgressTests.timeline
        let board = RunStatusBoard(style: .lines, output: RunStatusBoardTests.Captured().output)
        board.reset(Self.plan(t, at: 0))
        board.keep(ScenarioOffAir(t, at: 0))
        board.record(Self.onAir("door", t))
        #expect(Self.rows(board) == ["door on air hci0 1", "desk off air since 0 s - 0"])
        #expect(board.offAirBeacons.map(\.name) == ["desk"])
        #expect(board.liveScreen().summary.hasPrefix("1 of 2 beacons on air · 1 adapter · "), "desk's row names no adapter")
        // The step first, then the plan: door stays in the plan until the fleet drops it.
        board.follow(.stepped(time: 3, changes: t.changes(inPass: 0), next: nil, onAir: ["desk"], generation: 2, behind: false))
        #expect(Self.rows(board) == ["door on air hci0 1", "desk off air - 0"], "desk shown, not on air yet")
        board.record(.offAir(beacon: "door", adapter: "hci0", advertiser: 1))
        board.record(Self.onAir("desk", t))
        board.reset(Self.plan(t, at: 3))
        #expect(Self.rows(board) == ["door off air since 3 s hci0 1", "desk on air hci0 1"])
        #expect(board.offAirBeacons.map(\.name) == ["door"])
        let screen = board.liveScreen()
        #expect(screen.rows[0].cells[2] == "-" && screen.rows[0].status == .idle, "no advertiser while off air: \(screen.rows[0])")
        #expect(screen.summary.hasPrefix("1 of 2 beacons on air · 1 adapter · "), "\(screen.summary)")
        // The next pass: the plan first this time, then the pass's start.
        board.reset(Self.plan(t, at: 6))
        #expect(Self.rows(board) == ["door waiting hci0 1", "desk off air hci0 1"])
        board.follow(.pass(index: 1, time: 6))
        board.follow(.stepped(time: 6, changes: [], next: nil, onAir: ["door"], generation: 3, behind: false))
        board.record(Self.onAir("door", t))
        #expect(Self.rows(board) == ["door on air hci0 2", "desk off air since 6 s hci0 1"])
        // The adapter's teardown is not theirs: off-air rows stay off air.
        board.record(.stopped(adapter: "hci0", teardown: .clean))
        #expect(board.rows.map(\.state) == ["stopped", "off air since 6 s"])
    }

    @Test func withoutAScenarioADroppedBeaconLeaves() {
        let t = PlaybackProgressTests.timeline
        let board = RunStatusBoard(style: .lines, output: RunStatusBoardTests.Captured().output)
        board.reset(Self.plan(t, at: 0))
        board.reset(Self.plan(t, at: 3))
        #expect(Self.rows(board) == ["desk waiting hci0 0"])
        #expect(board.offAirBeacons.isEmpty)
    }
}
