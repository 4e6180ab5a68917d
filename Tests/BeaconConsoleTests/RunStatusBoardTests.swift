// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconConsole
import BeaconEmulator
import BeaconProfiles
import Synchronization
import Testing

/// The board a run's events feed, without a terminal: its lines are the events' own text, its
/// rows follow the events, and its JSON names beacons and adapters as the events do.
@Suite struct RunStatusBoardTests {
    /// What the board wrote, line by line.
    final class Captured: Sendable {
        let out = Mutex<[String]>([])
        let err = Mutex<[String]>([])
        var output: RunStatusBoard.Output {
            RunStatusBoard.Output(out: { line in self.out.withLock { $0.append(line) } }, err: { line in self.err.withLock { $0.append(line) } })
        }
    }

    static let beacons = (0..<2).map { i in
        BeaconProfile(name: "b\(i)", beacon: IBeacon(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: UInt16(i)))
    }
    static let plan = FleetPlanner().plan(beacons, on: [.assumedExtended(adapter: "hci0", sets: 4)])

    @Test func linesAreTheEventsText() {
        let captured = Captured()
        let board = RunStatusBoard(style: .lines, showsOffAir: false, output: captured.output)
        board.reset(Self.plan)
        let address = Self.beacons[0].address
        let events: [EmulatorEvent] = [
            .onAir(beacon: "b0", adapter: "hci0", advertiser: 1, address: address, selectedTxPower: -4),
            .offAir(beacon: "b0", adapter: "hci0", advertiser: 1),
            .slot(adapter: "hci0", index: 3, commands: 1, lateness: .milliseconds(2)),
            .applied(generation: 2, adapter: "hci0"),
            .stopped(adapter: "hci0", teardown: .incomplete(mayBeOnAir: ["b0", "b1"], reason: "timeout")),
        ]
        for e in events { board.record(e) }
        let lines = captured.out.withLock { $0 }.map { String($0.split(separator: " ", maxSplits: 2)[2]) }
        // Off air (not shown by this board), a turn on time and an update applied are no news.
        #expect(lines == [events[0].description, events[4].description])
        #expect(lines[0] == "b0 on air: hci0 advertiser 1, \(address), TX -4 dBm")
        #expect(lines[1].hasPrefix("hci0: the teardown failed (timeout): b0, b1 may still be on air; run "), "\(lines[1])")
        #expect(board.rows.map(\.state) == ["may be on air", "may be on air"])
        #expect(board.rows.map(\.turns) == [1, 0])
    }

    @Test func jsonNamesBeaconsAndAdapters() {
        let captured = Captured()
        let board = RunStatusBoard(style: .json, output: captured.output)
        board.record(.recovered(adapter: "mgmt:hci0", reason: "bluetoothd restarted", beacons: ["b1"], after: .milliseconds(120), afterAdapterBack: nil))
        let line = captured.out.withLock { $0 }.first ?? ""
        #expect(line.contains(#""event":"recovered""#) && line.contains(#""adapter":"mgmt:hci0""#) && line.contains(#""beacons":["b1"]"#), "\(line)")
    }

    @Test func managementAdaptersLetTheKernelChooseTheAddress() {
        let event = EmulatorEvent.onAir(beacon: "b0", adapter: "mgmt:hci0", advertiser: 0, address: Self.beacons[0].address, selectedTxPower: nil)
        #expect(event.description == "b0 on air: mgmt:hci0 advertiser 0, address chosen by the kernel")
        #expect(AdapterName("mgmt:hci0").isManagementAPI && !AdapterName("hci0").isManagementAPI)
    }
}
