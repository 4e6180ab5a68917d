// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole
import BeaconEmulator
import Synchronization
import Testing

/// The board tells its observers (the live page) of each change it shows, as the change is
/// recorded, and of nothing its rows do not show.
@Suite struct RunStatusBoardChangeTests {
    @Test func eachShownChangeTellsTheObserversAtOnce() {
        let board = RunStatusBoard(style: .lines, output: RunStatusBoardTests.Captured().output)
        let told = Mutex<[[String]]>([])
        // What the board shows when the observer is told: the change is already in it.
        board.onChange { told.withLock { $0.append(board.rows.map(\.state)) } }
        board.reset(RunStatusBoardTests.plan)
        let address = RunStatusBoardTests.beacons[0].address
        board.record(.onAir(beacon: "b0", adapter: "hci0", advertiser: 1, address: address, selectedTxPower: -4))
        // Not in the rows: no change.
        board.record(.slot(adapter: "hci0", index: 3, commands: 1, lateness: .milliseconds(2)))
        board.record(.applied(generation: 2, adapter: "hci0"))
        board.record(.offAir(beacon: "b0", adapter: "hci0", advertiser: 1))
        board.message("a note")
        #expect(told.withLock { $0 } == [["waiting", "waiting"], ["on air", "waiting"], ["waiting", "waiting"], ["waiting", "waiting"]])
    }
}
