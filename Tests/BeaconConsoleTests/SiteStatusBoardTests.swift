// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole
import BeaconSite
import BeaconSystem
import LiveView
import Synchronization
import Testing

/// The live view of `beacon site`, fed the controller's events, as text: the radios above the
/// beacons, online or not and since when, each beacon on air, off air, in error or not placed,
/// and the unmet coverage goals in the summary; fitted to 80 columns, a fleet of 160 summarised.
@Suite struct SiteStatusBoardTests {
    static let uuid = "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061"

    /// Two hosts of one radio each, 20 m apart; `count` beacons alternately near each, and one
    /// 500 m away that no radio can carry.
    static func site(beacons count: Int) throws -> (Site, SitePlacement) {
        var lines = [
            "name: lab",
            "broker: {url: \"mqtt://127.0.0.1:1883\"}",
            "radios:",
            "  - {host: pi-west, adapter: hci0, position: {x: 0, y: 0}, capacity: 100}",
            "  - {host: pi-east, adapter: hci1, position: {x: 20, y: 0}, capacity: 100}",
            "beacons:",
        ]
        let names = ["door", "desk", "shelf", "till"]
        for i in 0..<count {
            let name = i < names.count ? names[i] : "b\(i)"
            lines.append("  - {name: \(name), uuid: \(uuid), major: 7, minor: \(i + 1), position: {x: \(i.isMultiple(of: 2) ? 1 : 19), y: 0}}")
        }
        lines.append("  - {name: far-store, uuid: \(uuid), major: 7, minor: 1000, position: {x: 500, y: 0}}")
        let site = try SiteLoader.parse(lines.joined(separator: "\n") + "\n", file: "lab.yaml")
        return (site, SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios))
    }

    final class Captured: Sendable {
        let out = Mutex<[String]>([])
        let err = Mutex<[String]>([])
        var output: RunStatusBoard.Output {
            RunStatusBoard.Output(out: { line in self.out.withLock { $0.append(line) } }, err: { line in self.err.withLock { $0.append(line) } })
        }
    }

    /// The clock the board reads: set by the test.
    final class Clock: Sendable {
        let now = Mutex<Double>(0)
        func set(_ t: Double) { now.withLock { $0 = t } }
    }

    static func board(_ site: Site, _ placement: SitePlacement, style: RunStatusBoard.Style, clock: Clock, captured: Captured = Captured()) -> SiteStatusBoard {
        SiteStatusBoard(site: site, placement: placement, title: "beacon site lab.yaml", reloads: true, style: style, output: captured.output,
                        clock: { clock.now.withLock { $0 } })
    }

    static let west = SiteRadio.ID(host: "pi-west", adapter: "hci0")
    static let east = SiteRadio.ID(host: "pi-east", adapter: "hci1")

    /// A table board of the site with `count` beacons, fed ``feed(_:clock:)``, and its clock.
    static func fed(beacons count: Int) throws -> (SiteStatusBoard, Clock) {
        let (site, placement) = try Self.site(beacons: count)
        let clock = Clock()
        let board = Self.board(site, placement, style: .table, clock: clock)
        Self.feed(board, clock: clock)
        return (board, clock)
    }

    /// door and shelf on pi-west (door on air, shelf in error), desk and till on pi-east, whose
    /// host went offline; far-store placed nowhere.
    static func feed(_ board: SiteStatusBoard, clock: Clock) {
        func id(_ minor: Int) -> String { "\(uuid.lowercased())-7-\(minor)" }
        let events: [(Double, SiteController.Event)] = [
            (0.2, .connected),
            (0.3, .unplaced(id: id(1000), name: "far-store", reason: "no radio within 12 m (max_distance); the nearest, pi-east/hci1, is 480.0 m away")),
            (0.4, .ready),
            (1, .hostOnline("pi-west")),
            (1, .hostOnline("pi-east")),
            (2, .beacon(id: id(1), name: "door", onAir: true, radio: west, reason: nil)),
            (2, .beacon(id: id(2), name: "desk", onAir: true, radio: east, reason: nil)),
            (2, .beacon(id: id(4), name: "till", onAir: true, radio: east, reason: nil)),
            (3, .beacon(id: id(3), name: "shelf", onAir: false, radio: west, reason: "Command Disallowed (0x0C)", error: true)),
            (50, .hostOffline("pi-east")),
            (50, .beacon(id: id(2), name: "desk", onAir: false, radio: east, reason: "pi-east is offline")),
            (50, .beacon(id: id(4), name: "till", onAir: false, radio: east, reason: "pi-east is offline")),
        ]
        for (time, event) in events {
            clock.set(time)
            board.record(event)
        }
    }

    @Test("80 columns: the radios, the beacons problems first, the newest events and the unmet goals")
    func theSiteAt80Columns() throws {
        let (board, _) = try Self.fed(beacons: 4)
        let lines = board.liveScreen(now: 65).lines(width: 80, height: 24).map(\.text)
        #expect(lines == [
            "beacon site lab.yaml — Ctrl-C stops, SIGHUP reloads",
            "RADIO         STATE    SINCE  ON AIR  CAPACITY",
            "pi-east/hci1  offline    15s  0 of 2       100",
            "pi-west/hci0  online   1m04s  1 of 2       100",
            "BEACON     RADIO         STATE       SINCE  WHY",
            "shelf      pi-west/hci0  error       1m02s  Command Disallowed (0x0C)",
            "far-store  -             not placed  1m04s  no radio within 12 m (max_dista…",
            "desk       pi-east/hci1  off air       15s  pi-east is offline",
            "till       pi-east/hci1  off air       15s  pi-east is offline",
            "door       pi-west/hci0  on air      1m03s",
            "pi-west: online",
            "pi-east: online",
            "pi-east: offline",
            "1/2 radios online · 1/5 beacons on air · unmet: 1 not placed, 3 off air (2 pi-e…",
        ], "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { $0.count <= 80 })
        // The summary said whole (the line the run leaves behind).
        #expect(SiteStatusBoard.summary(board.status)
            == "1/2 radios online · 1/5 beacons on air · unmet: 1 not placed, 3 off air (2 pi-east is offline, 1 error: Command Disallowed (0x0C))")
        // Wide enough, the identities too; the rows and lines are the same otherwise.
        let wide = board.liveScreen(now: 65).lines(width: 160, height: 24).map(\.text)
        #expect(wide[4].hasPrefix("BEACON     IDENTITY                                     RADIO "), "\(wide)")
        #expect(wide[9].hasPrefix("door       8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-7-1     pi-west/hci0  on air"), "\(wide)")
    }

    @Test("the host back: its radio online again, its beacons on air, nothing unmet but the unplaced one")
    func aHostComingBack() throws {
        let (board, clock) = try Self.fed(beacons: 4)
        clock.set(70)
        board.record(.hostOnline("pi-east"))
        board.record(.beacon(id: "\(Self.uuid.lowercased())-7-2", name: "desk", onAir: true, radio: Self.east, reason: nil))
        board.record(.beacon(id: "\(Self.uuid.lowercased())-7-4", name: "till", onAir: true, radio: Self.east, reason: nil))
        board.record(.disconnected(reason: "connection refused"))
        let lines = board.liveScreen(now: 75).lines(width: 80, height: 24).map(\.text)
        #expect(lines[2] == "pi-west/hci0  online  1m14s  1 of 2       100", "\(lines)")
        #expect(lines[3] == "pi-east/hci1  online     5s  2 of 2       100", "\(lines)")
        #expect(lines.last == "2/2 radios online · 3/5 beacons on air · broker connection lost · unmet: 1 not …", "cut at 80 columns")
        #expect(SiteStatusBoard.summary(board.status).hasSuffix("unmet: 1 not placed, 1 off air (1 error: Command Disallowed (0x0C))"))
    }

    @Test("160 beacons in 80×24: every radio shown, the beacons that do not fit counted with their errors")
    func aSiteOf160Beacons() throws {
        let (board, clock) = try Self.fed(beacons: 160)
        // The rest as the controller says: pi-west's on air, pi-east's off with their host.
        clock.set(60)
        for i in 4..<160 {
            let west = i.isMultiple(of: 2)
            board.record(.beacon(id: "\(Self.uuid.lowercased())-7-\(i + 1)", name: "b\(i)", onAir: west, radio: west ? Self.west : Self.east,
                                 reason: west ? nil : "pi-east is offline"))
        }
        for height in [24, 50, 12] {
            let lines = board.liveScreen(now: 65).lines(width: 80, height: height)
            #expect(lines.count == height, "\(lines.map(\.text))")
            #expect(lines.allSatisfy { $0.text.count <= 80 })
            #expect(lines.filter { $0.text.hasPrefix("pi-west/hci0 ") || $0.text.hasPrefix("pi-east/hci1 ") }.count == 2, "both radios: \(lines.map(\.text))")
            // shelf (error) and far-store (not placed) are the two problems: shown first.
            #expect(lines.contains { $0.text.hasPrefix("shelf ") } && lines.contains { $0.text.hasPrefix("far-store ") })
            #expect(lines.contains { $0.role == .more && $0.text.hasSuffix(" more, 0 with errors") }, "\(lines.map(\.text))")
            #expect(lines.last?.text == "1/2 radios online · 79/161 beacons on air · unmet: 1 not placed, 81 off air (80…",
                    "\(lines.last?.text ?? "")")
        }
    }

    @Test("without a terminal: one line per event, or one JSON object; notes on standard error")
    func linesAndJSON() throws {
        let (site, placement) = try Self.site(beacons: 2)
        for style in [RunStatusBoard.Style.lines, .json] {
            let captured = Captured()
            let clock = Clock()
            let board = Self.board(site, placement, style: style, clock: clock, captured: captured)
            clock.set(1.5)
            let event = SiteController.Event.beacon(id: "x-7-1", name: "door", onAir: false, radio: Self.west, reason: "adapter busy", error: true)
            board.record(event)
            board.note("SIGHUP: reading lab.yaml again")
            #expect(captured.out.withLock { $0 } == [style == .lines ? event.text : event.json(time: 1.5).text])
            #expect(captured.err.withLock { $0 } == ["SIGHUP: reading lab.yaml again"])
        }
        #expect(SiteController.Event.beacon(id: "x-7-1", name: "door", onAir: false, radio: Self.west, reason: "adapter busy", error: true).text
            == "door (x-7-1): off air (error): adapter busy")
        #expect(SiteController.Event.beacon(id: "x", name: "d", onAir: false, radio: nil, reason: "busy", error: true).json(time: 0).text
            == #"{"time":0,"event":"beacon","id":"x","name":"d","on_air":false,"radio":null,"reason":"busy","error":true}"#)
    }

    @Test("a site of one host: a radio on air, then failed")
    func aLocalRun() throws {
        let (site, placement) = try Self.site(beacons: 2)
        let clock = Clock()
        let board = Self.board(site, placement, style: .table, clock: clock)
        clock.set(1)
        board.record(LocalSiteRun.Event.onAir(radio: Self.west, beacons: 1))
        board.record(LocalSiteRun.Event.onAir(radio: Self.east, beacons: 1))
        clock.set(4)
        board.record(LocalSiteRun.Event.failed(radio: Self.east, reason: "the adapter went away"))
        let lines = board.liveScreen(now: 5).lines(width: 80, height: 24).map(\.text)
        #expect(lines.contains("pi-east/hci1  failed: the adapter went away     1s  0 of 1       100"), "\(lines)")
        #expect(lines.contains("desk       pi-east/hci1  error          1s  the adapter went away"), "\(lines)")
        #expect(lines.contains("pi-east/hci1: the adapter went away"), "the failure among the messages: \(lines)")
        #expect(lines.last == "1/2 radios online · 1/3 beacons on air · unmet: 1 not placed, 1 off air (1 erro…")
    }

    /// An 80×24 terminal that is never written to (the terminal layer's writes go to the test).
    struct Terminal80x24: SystemCalls {
        func isTerminal(_ fd: Int32) -> Bool { true }
        func terminalSize(of fd: Int32) -> TerminalSize? { TerminalSize(columns: 80, rows: 24) }
    }

    @Test("a note while the view covers standard error waits for its end; the end leaves the summary")
    func theEndOfTheView() throws {
        let (site, placement) = try Self.site(beacons: 2)
        let written = Mutex("")
        let terminal = LiveTerminal(fd: 99, colour: false, calls: Terminal80x24()) { text in written.withLock { $0 += text } }
        let captured = Captured()
        let output = RunStatusBoard.Output(out: captured.output.out, err: captured.output.err, errorsShareTerminal: true)
        let board = SiteStatusBoard(site: site, placement: placement, title: "beacon site lab.yaml", reloads: true, style: .table, terminal: terminal,
                                    output: output, clock: { 1 })
        terminal.start()
        board.record(.hostOnline("pi-west"))
        board.note("SIGHUP: reading lab.yaml again")
        #expect(board.liveScreen().messages == ["pi-west: online", "SIGHUP: reading lab.yaml again"])
        #expect(captured.out.withLock { $0 }.isEmpty && captured.err.withLock { $0 }.isEmpty, "nothing printed under the view")
        board.finishView()
        #expect(written.withLock { $0 }.hasSuffix(TerminalFrame.leave))
        #expect(captured.out.withLock { $0 } == ["1/2 radios online · 0/3 beacons on air · unmet: 1 not placed"])
        #expect(captured.err.withLock { $0 } == ["SIGHUP: reading lab.yaml again"])
    }
}
