// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios
import Testing

/// `play`'s view keeps a scenario's beacon that a step hides: its row stays, `off air since`
/// the hide, with the adapter it was on and its turns, until it comes back on air; a beacon
/// not yet on air has a row too. Without a scenario (advertise's reload) a beacon the plan drops
/// loses its row.
@Suite struct RunStatusBoardCastTests {
    /// `door` and `till` on air, `desk` hidden; at 3 s door hides, at 5 s it shows again.
    static func timeline() throws -> ScenarioTimeline {
        let text = """
            fleet:
              defaults: {uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1}
              beacons:
                - {name: door, minor: 1}
                - {name: till, minor: 2}
                - {name: desk, minor: 3}
            hidden: [desk]
            steps:
              - {at: 3s, hide: door}
              - {at: 5s, show: door}
            duration: 6s
            """
        return ScenarioTimeline(try ScenarioLoader.parse(text, file: "t.yaml"))
    }

    static func plan(_ timeline: ScenarioTimeline, at time: Double) -> FleetPlan {
        FleetPlanner().plan(timeline.state(at: time).onAir, on: [.assumedExtended(adapter: "hci0", sets: 4)])
    }

    static func step(_ timeline: ScenarioTimeline, _ index: Int) -> ScenarioPlayer.Event {
        let c = timeline.pass[index]
        return .stepped(time: c.time, changes: [c], next: nil, onAir: [], generation: index + 2, behind: false)
    }

    /// `name state adapter turns` of each row.
    static func rows(_ board: RunStatusBoard) -> [String] {
        board.rows.map { "\($0.beacon) \($0.state) \($0.adapter) \($0.turns)" }
    }

    @Test func aHiddenBeaconStaysOffAirUntilItComesBack() throws {
        let t = try Self.timeline()
        let board = RunStatusBoard(style: .lines, output: RunStatusBoardTests.Captured().output)
        board.reset(Self.plan(t, at: 0))
        board.keep(ScenarioOffAir(t, at: 0))
        let door = t.scenario.fleet.beacons[0]
        board.record(.onAir(beacon: "door", adapter: "hci0", advertiser: 1, address: door.address, selectedTxPower: nil))
        #expect(Self.rows(board) == ["door on air hci0 1", "till waiting hci0 0", "desk off air since 0 s - 0"])
        #expect(board.offAirBeacons.map(\.name) == ["desk"])
        // The step is reported before the fleet's plan drops door, or after: either way its row stays.
        board.follow(Self.step(t, 0))
        #expect(Self.rows(board)[0] == "door on air hci0 1", "still in the plan")
        board.record(.offAir(beacon: "door", adapter: "hci0", advertiser: 1))
        board.reset(Self.plan(t, at: 3))
        #expect(Self.rows(board) == ["door off air since 3 s hci0 1", "till waiting hci0 0", "desk off air since 0 s - 0"])
        #expect(board.offAirBeacons.map(\.name) == ["door", "desk"])
        let screen = board.liveScreen()
        #expect(screen.summary.hasPrefix("0 of 3 beacons on air · 1 adapter · "), "desk's row names no adapter: \(screen.summary)")
        #expect(screen.rows[0].cells[2] == "-" && screen.rows[0].status == .idle, "no advertiser while off air: \(screen.rows[0])")
        // Back: the show, then its on-air event before the plan that has it.
        board.follow(Self.step(t, 1))
        #expect(Self.rows(board)[0] == "door off air hci0 1", "shown, not on air yet")
        board.record(.onAir(beacon: "door", adapter: "hci0", advertiser: 1, address: door.address, selectedTxPower: nil))
        board.reset(Self.plan(t, at: 5))
        #expect(Self.rows(board) == ["door on air hci0 2", "till waiting hci0 0", "desk off air since 0 s - 0"])
        #expect(board.offAirBeacons.map(\.name) == ["desk"])
        // The adapter's teardown is not theirs: off-air rows stay off air.
        board.record(.stopped(adapter: "hci0", teardown: .clean))
        #expect(board.rows.map(\.state) == ["stopped", "stopped", "off air since 0 s"])
    }

    @Test func withoutAScenarioADroppedBeaconLeaves() throws {
        let t = try Self.timeline()
        let board = RunStatusBoard(style: .lines, output: RunStatusBoardTests.Captured().output)
        board.reset(Self.plan(t, at: 0))
        board.reset(Self.plan(t, at: 3))
        #expect(Self.rows(board) == ["till waiting hci0 0"])
        #expect(board.offAirBeacons.isEmpty)
    }
}
