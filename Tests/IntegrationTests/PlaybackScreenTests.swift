// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// What a person sees in a terminal (tmux, 80×24) while `play` and `walk` run: the live view
/// with the scenario clock and the next step, or the walker, in its title; every line fits.
@Suite("play and walk in tmux", .serialized)
struct PlaybackScreenTests {
    /// The scenario clock the title shows (`scenario 7.3 s (pass 1 of 3) · next at 12 s: …`).
    static func scenarioClock(_ line: String) -> Double? {
        guard line.hasPrefix("scenario "), let s = line.dropFirst(9).split(separator: " ").first else { return nil }
        return Double(s)
    }

    /// `1 of 1 beacon on air · 1 adapter · 2 turns · 0 errors · 0 late · +4.2 s`.
    static func isSummary(_ line: String) -> Bool { line.contains(" on air · ") && line.contains(" errors · ") && line.contains(" late · +") }

    static func checkFits(_ lines: [String], width: Int, height: Int) {
        #expect(lines.count <= height, "more lines than the terminal: \(lines)")
        #expect(TmuxScreen.widest(lines) <= width, "a line wider than \(width) columns: \(lines)")
    }

    /// The row of `beacon` on a screen, if it has one.
    static func row(_ beacon: String, _ lines: [String]) -> String? { lines.first { $0.hasPrefix("\(beacon) ") } }

    /// At twice the speed (the steps at 2 s and 7 s come 1 s and 3.5 s in): the beacons the
    /// scenario keeps hidden have rows off air from the start, and one comes back on air.
    @Test("play scenarios/store-opening.yaml -i virtual --speed 2 at 80×24")
    func storeOpening() async throws {
        let (width, height) = (80, 24)
        let tmux = try TmuxScreen(width: width, height: height, beacon: ["play", "scenarios/store-opening.yaml", "-i", "virtual", "--speed", "2"])
        defer { tmux.close() }
        // The first step (2 s: room-west appears) has been played: the title names the next one,
        // room-west's row is on air, and the three still hidden keep theirs, off air since 0 s.
        let hidden = ["room-north", "room-east", "room-south"]
        let first = await tmux.waitForScreen(timeout: .seconds(120)) { lines in
            guard let title = lines.first, Self.scenarioClock(title) != nil else { return false }
            Self.checkFits(lines, width: width, height: height)
            return title.contains(" · next at 7 s: show room-north")
                && Self.row("room-west", lines)?.contains(" on air ") == true
                && hidden.allSatisfy { Self.row($0, lines)?.contains(" off air since 0 s ") == true }
                && lines.last.map(Self.isSummary) == true
        }
        try #require(first != nil, "the view after the first step: \(tmux.everything())")
        let title = try #require(first?.first)
        #expect(title.hasPrefix("scenario ") && title.contains(" (pass 1 of 3) · "), "\(title)")
        #expect(title.hasSuffix(" — Ctrl-C stops"), "the whole title fits in 80 columns: \(title)")
        #expect(first?.last?.hasPrefix("1 of 4 beacons on air · 1 adapter · ") == true, "the hidden beacons count, not as an adapter: \(first ?? [])")
        // The clock runs between steps, and at 7 s room-north comes back on air: its row (in the
        // fleet's place, the second) on air again, the other two still off air.
        let clock = try #require(Self.scenarioClock(title))
        let later = await tmux.waitForScreen(timeout: .seconds(120)) { lines in
            Self.checkFits(lines, width: width, height: height)
            return lines.first.flatMap(Self.scenarioClock).map { $0 > clock } == true
                && Self.row("room-north", lines)?.contains(" on air ") == true
                && ["room-east", "room-south"].allSatisfy { Self.row($0, lines)?.contains(" off air since 0 s ") == true }
        }
        try #require(later != nil, "the clock moves and room-north comes back: \(tmux.everything())")
        let rows = later?.filter { $0.hasPrefix("room-") }.map { String($0.prefix { $0 != " " }) }
        #expect(rows == ["room-west", "room-north", "room-east", "room-south"], "the fleet's order: \(later ?? [])")
        try tmux.sendInterrupt()
        let status = await tmux.waitForExit()
        #expect(status == 0, "\(tmux.everything())")
        let after = tmux.everything()
        #expect(!after.contains { Self.scenarioClock($0) != nil && $0.contains("Ctrl-C stops") }, "no copy of the view is left: \(after)")
        #expect(after.filter(Self.isSummary).count == 1, "one final summary: \(after)")
        // Said once, for the adapter.
        #expect(after.filter { $0.contains("advertising stopped") } == ["virtual: advertising stopped (advertising off, sets removed)"], "\(after)")
    }

    @Test("walk profiles/room-2m.yaml -i virtual at 80×24")
    func walkRoom() async throws {
        let (width, height) = (80, 24)
        let tmux = try TmuxScreen(width: width, height: height,
                                  beacon: ["walk", "profiles/room-2m.yaml", "--path", "0,0 0.5,0 0.5,0.5", "--loop", "-i", "virtual"])
        defer { tmux.close() }
        let walking = await tmux.waitForScreen(timeout: .seconds(120)) { lines in
            guard let title = lines.first, title.hasPrefix("walk ") else { return false }
            Self.checkFits(lines, width: width, height: height)
            return title.contains(", walker at (") && lines.filter { $0.hasPrefix("room-") && $0.contains(" on air ") }.count == 4
                && lines.last.map(Self.isSummary) == true
        }
        try #require(walking != nil, "the walk's view: \(tmux.everything())")
        #expect(walking?.first?.hasSuffix(" — Ctrl-C stops") == true, "\(walking ?? [])")
        try tmux.sendInterrupt()
        #expect(await tmux.waitForExit() == 0, "\(tmux.everything())")
        #expect(tmux.everything().filter(Self.isSummary).count == 1, "\(tmux.everything())")
    }
}
