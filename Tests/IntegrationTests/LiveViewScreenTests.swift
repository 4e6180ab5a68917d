// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// What a person sees in a terminal (tmux, at 80×24 and 160×50): the live view of `advertise`
/// fits the screen, keeps its title and summary on it, and leaves no copies in the scrollback.
@Suite("the live view in tmux", .serialized)
struct LiveViewScreenTests {
    static let title = "beacon: 160 beacons on virtual"

    static func isSummary(_ line: String) -> Bool { line.contains(" of 160 beacons on air · 1 adapter · ") }

    /// The title, or as much of it as fits.
    static func isTitle(_ line: String) -> Bool {
        line.hasPrefix(title) || (line.count > 8 && line.hasSuffix("…") && title.hasPrefix(line.dropLast()))
    }

    /// The elapsed time the summary line shows (`… · +4.2 s`).
    static func elapsed(_ line: String) -> Double? {
        guard let plus = line.range(of: "· +", options: .backwards), line.hasSuffix(" s") else { return nil }
        return Double(line[plus.upperBound...].dropLast(2))
    }

    static func count(_ lines: [String], _ text: String) -> Int { lines.filter { $0.contains(text) }.count }

    /// Checks one capture of the running view at `width`×`height`.
    static func checkRunning(_ lines: [String], width: Int, height: Int, scrollback: [String]) {
        #expect(lines.count <= height, "more lines than the terminal: \(lines)")
        #expect(TmuxScreen.widest(lines) <= width, "a line wider than \(width) columns: \(lines)")
        #expect(lines.first.map(isTitle) == true, "the title on the first line: \(lines)")
        #expect(lines.last.map(isSummary) == true, "the summary on the last line: \(lines)")
        #expect(lines.contains { $0.hasPrefix("… and ") && $0.trimmingCharacters(in: .whitespaces).hasSuffix(" more, 0 with errors") }, "the rows that do not fit are summarised: \(lines)")
        #expect(scrollback.filter(isTitle).count == 1, "one copy of the title in the scrollback and screen: \(scrollback)")
    }

    @Test("advertise profiles/station-160.yaml -i virtual", arguments: [(80, 24), (160, 50)])
    func station160(width: Int, height: Int) async throws {
        let tmux = try TmuxScreen(width: width, height: height, beacon: ["advertise", "profiles/station-160.yaml", "-i", "virtual"])
        defer { tmux.close() }
        // Every capture over 3 s of the run by the view's own clock (from the first one seen, so
        // a slow start only makes the test longer), then Ctrl-C.
        var first: Double?
        var captures = 0
        let watched = await tmux.waitForScreen(timeout: .seconds(120)) { lines in
            guard let last = lines.last, Self.isSummary(last), let elapsed = Self.elapsed(last) else { return false }
            captures += 1
            Self.checkRunning(lines, width: width, height: height, scrollback: tmux.everything())
            if first == nil { first = elapsed }
            return elapsed >= (first ?? elapsed) + 3
        }
        try #require(watched != nil, "the view ran for 3 s: \(tmux.everything())")
        #expect(captures >= 2)
        try tmux.sendInterrupt()
        let status = await tmux.waitForExit()
        #expect(status == 0, "\(tmux.everything())")
        // After the run: the normal screen again, with the plan, one summary and the stop line.
        let after = tmux.everything()
        #expect(TmuxScreen.widest(after.filter { !$0.hasPrefix("plan:") && !$0.hasPrefix("  ") }) <= width)
        #expect(Self.count(after, Self.title) == 0, "no copy of the view is left: \(after)")
        #expect(after.filter(Self.isSummary).count == 1, "one final summary: \(after)")
        // Said once, for the adapter.
        #expect(after.filter { $0.contains("advertising stopped") } == ["virtual: advertising stopped (advertising off, sets removed)"], "\(after)")
    }

    @Test("the view follows resizes (SIGWINCH), gives the screen back on Ctrl-Z, and stops on Ctrl-C")
    func resizes() async throws {
        let tmux = try TmuxScreen(width: 80, height: 24, beacon: ["advertise", "profiles/station-160.yaml", "-i", "virtual"])
        defer { tmux.close() }
        try #require(await tmux.waitForScreen { $0.last.map(Self.isSummary) == true } != nil, "\(tmux.everything())")
        for (width, height) in [(160, 50), (50, 12), (120, 30)] {
            try tmux.resize(width: width, height: height)
            // The view is drawn again at the new size: as many lines as the terminal has, the
            // title first (tmux keeps the bottom of the old frame until then).
            let resized = await tmux.waitForScreen { lines in
                lines.count == height && lines.first.map(Self.isTitle) == true && lines.last.map(Self.isSummary) == true
            }
            try #require(resized != nil, "redrawn at \(width)×\(height): \(tmux.screen())")
            Self.checkRunning(resized ?? [], width: width, height: height, scrollback: tmux.everything())
        }
        // Ctrl-Z gives the screen back (the plan is on it again); SIGCONT brings the view back.
        try tmux.sendSuspend()
        let suspended = await tmux.waitForScreen { lines in lines.contains { $0.hasPrefix("plan: 160 beacons") } && !lines.contains(where: Self.isTitle) }
        try #require(suspended != nil, "the normal screen while stopped: \(tmux.screen())")
        let program = try #require(try tmux.programID())
        kill(program, SIGCONT)
        let resumed = await tmux.waitForScreen { $0.first.map(Self.isTitle) == true && $0.last.map(Self.isSummary) == true }
        try #require(resumed != nil, "the view again after SIGCONT: \(tmux.screen())")
        try tmux.sendInterrupt()
        let status = await tmux.waitForExit()
        #expect(status == 0, "\(tmux.everything())")
        #expect(tmux.everything().filter(Self.isSummary).count == 1)
    }

    @Test("TERM=dumb: plain lines; NO_COLOR: no colour")
    func plainAndColourless() async throws {
        let dumb = try TmuxScreen(width: 80, height: 24, beacon: ["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--duration", "1s"],
                                  environment: ["TERM": "dumb"])
        defer { dumb.close() }
        #expect(await dumb.waitForExit() == 0, "\(dumb.everything())")
        let lines = dumb.everything()
        #expect(lines.contains { $0.contains(" room-west on air: virtual advertiser ") }, "one line per change: \(lines)")
        #expect(!lines.contains { $0.hasPrefix("beacon: ") }, "no live view: \(lines)")

        // The test runner's own NO_COLOR must not decide the first case.
        for (environment, coloured) in [(["NO_COLOR": String?.none], true), (["NO_COLOR": "1"], false)] {
            let tmux = try TmuxScreen(width: 100, height: 20, beacon: ["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--duration", "20s"],
                                      environment: environment)
            defer { tmux.close() }
            let onAir = await tmux.waitForScreen { $0.last?.hasPrefix("4 of 4 beacons on air") == true }
            try #require(onAir != nil, "\(tmux.everything())")
            // On-air rows are green (SGR 32) unless NO_COLOR is set.
            #expect(tmux.screenWithAttributes().contains("\u{1B}[32m") == coloured, "\(environment): \(tmux.screenWithAttributes())")
            try tmux.sendInterrupt()
            #expect(await tmux.waitForExit() == 0)
        }
    }
}
