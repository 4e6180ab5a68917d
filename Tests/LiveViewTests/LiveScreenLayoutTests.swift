// SPDX-License-Identifier: GPL-2.0-or-later
import LiveView
import Testing

/// The live view's layout: whatever the terminal's size, no line wider than it, never more lines
/// than its height, title and summary always there, problems first, the rest summarised.
struct LiveScreenLayoutTests {
    static let columns = [
        LiveColumn("BEACON"), LiveColumn("ADDRESS", dropOrder: 2), LiveColumn("STATE"),
        LiveColumn("TURNS", alignment: .right, dropOrder: 1), LiveColumn("LAST ERROR"),
    ]

    /// `count` beacons; those in `problems` have an error.
    static func fleet(_ count: Int, problems: Set<Int> = []) -> LiveScreen {
        let rows = (0..<count).map { i in
            problems.contains(i)
                ? LiveRow(["beacon-\(i)", "C0:00:00:00:00:\(i % 100)", "on air", "\(i)", "Command Disallowed (0x0C) on set \(i)"], status: .problem)
                : LiveRow(["beacon-\(i)", "C0:00:00:00:00:\(i % 100)", i.isMultiple(of: 2) ? "on air" : "waiting", "\(i)", "-"], status: i.isMultiple(of: 2) ? .active : .idle)
        }
        return LiveScreen(title: "beacon advertise: \(count) beacons on virtual — Ctrl-C stops", columns: columns, rows: rows,
                          messages: ["SIGHUP: reloading the profile files", "the beacons are unchanged"],
                          summary: "\(count) beacons · 1 adapter · 12 turns · \(problems.count) errors · +3.0 s")
    }

    @Test(arguments: [(80, 24), (160, 50), (40, 10), (20, 5), (1, 1), (200, 3), (10, 2), (80, 4)])
    func fitsEverySize(width: Int, height: Int) {
        let screen = Self.fleet(160, problems: [5, 150])
        let lines = screen.lines(width: width, height: height)
        #expect(lines.count <= height)
        #expect(lines.allSatisfy { $0.text.count <= width }, "\(lines.map(\.text))")
        #expect(lines.last?.role == .summary)
        if height >= 2 { #expect(lines.first?.role == .title) }
    }

    @Test func rowsThatDoNotFitAreSummarisedWithTheirErrorCount() {
        // 160 rows in 24 lines: title, header, 2 messages (a third of 21 is 7, but only 2 exist),
        // summary: 19 lines for rows, 18 rows and the "more" line.
        let lines = Self.fleet(160).lines(width: 80, height: 24)
        #expect(lines.count == 24)
        #expect(lines.filter { if case .row = $0.role { true } else { false } }.count == 18)
        #expect(lines.contains(LiveLine("… and 142 more, 0 with errors", role: .more)))
        #expect(lines[lines.count - 3].text == "SIGHUP: reloading the profile files")
    }

    @Test func problemsComeFirstAndHiddenOnesAreCounted() {
        let lines = Self.fleet(100, problems: [40, 70, 90]).lines(width: 120, height: 6)
        // title, header, then 3 lines: one message (a third), one row (the first problem) and
        // the "more" line counting the two hidden problems; the summary.
        #expect(lines.map(\.role) == [.title, .header, .row(.problem), .more, .message, .summary])
        #expect(lines[2].text.hasPrefix("beacon-40 "))
        #expect(lines[3].text == "… and 99 more, 2 with errors")
        #expect(lines[4].text == "the beacons are unchanged")
        let taller = Self.fleet(100, problems: [40, 70, 90]).lines(width: 120, height: 12)
        #expect(taller.dropFirst(2).prefix(4).map { String($0.text.prefix(10)) } == ["beacon-40 ", "beacon-70 ", "beacon-90 ", "beacon-0  "])
    }

    @Test func everythingShownWhenItFits() {
        let lines = Self.fleet(3).lines(width: 120, height: 24)
        #expect(lines.map(\.role) == [.title, .header, .row(.active), .row(.idle), .row(.active), .message, .message, .summary])
        #expect(!lines.contains { $0.role == .more })
    }

    @Test func narrowTerminalsDropColumnsByOrderThenCut() {
        let screen = Self.fleet(3, problems: [1])
        let wide = screen.lines(width: 200, height: 10)
        #expect(wide[1].text == "BEACON    ADDRESS           STATE   TURNS  LAST ERROR")
        #expect(wide[2].text == "beacon-1  C0:00:00:00:00:1  on air      1  Command Disallowed (0x0C) on set 1")
        // 77 columns in all; without ADDRESS (drop order 2) 59; without TURNS (1) too, 52.
        let dropOne = screen.lines(width: 76, height: 10)
        #expect(dropOne[1].text == "BEACON    STATE   TURNS  LAST ERROR")
        #expect(dropOne[2].text.count == 59)
        let narrower = screen.lines(width: 58, height: 10)
        #expect(narrower[1].text == "BEACON    STATE   LAST ERROR")
        let narrow = screen.lines(width: 30, height: 10)
        #expect(narrow[1].text == "BEACON    STATE   LAST ERROR")
        #expect(narrow[2].text == "beacon-1  on air  Command Dis…")
        #expect(narrow[2].text.count == 30)
    }

    @Test func rightAlignedColumnsPadOnTheLeft() {
        let screen = LiveScreen(title: "t", columns: [LiveColumn("N", alignment: .right), LiveColumn("NAME")],
                                rows: [LiveRow(["7", "a"], status: .idle), LiveRow(["1234", "b"], status: .idle)], summary: "s")
        #expect(screen.lines(width: 80, height: 10).map(\.text) == ["t", "   N  NAME", "   7  a", "1234  b", "s"])
    }

    @Test func tinyTerminalsKeepTheSummaryFirst() {
        let screen = Self.fleet(10)
        #expect(screen.lines(width: 80, height: 1).map(\.role) == [.summary])
        #expect(screen.lines(width: 80, height: 2).map(\.role) == [.title, .summary])
        #expect(screen.lines(width: 80, height: 3).map(\.role) == [.title, .more, .summary])
        #expect(screen.lines(width: 80, height: 3)[1].text == "… and 10 more, 0 with errors")
        #expect(screen.lines(width: 0, height: 24).isEmpty)
        #expect(screen.lines(width: 80, height: 0).isEmpty)
    }

    @Test func placeholderWhileThereAreNoRows() {
        let screen = LiveScreen(title: "scanning", columns: Self.columns, rows: [], placeholder: "no beacon heard yet", summary: "0 beacons")
        #expect(screen.lines(width: 80, height: 24).map(\.text) == ["scanning", "no beacon heard yet", "0 beacons"])
    }

    @Test func controlCharactersCannotMoveTheCursor() {
        let screen = LiveScreen(title: "a\u{1B}[2Jb", columns: [LiveColumn("NAME")], rows: [LiveRow(["x\ty\u{7}"], status: .idle)], summary: "s\r")
        let lines = screen.lines(width: 80, height: 10)
        #expect(lines.map(\.text) == ["a?[2Jb", "NAME", "x y?", "s?"])
    }

    @Test func cutLinesEndWithAnEllipsis() {
        #expect(LiveScreen.fit("abcdef", 4) == "abc…")
        #expect(LiveScreen.fit("abcd", 4) == "abcd")
        #expect(LiveScreen.fit("abc", 1) == "a")
        #expect(LiveScreen.fit("abc", 0) == "")
    }
}

/// A lead table above the main one (a site's radios above its beacons): in at most half the
/// room left, its rows that do not fit summarised; the main table keeps the rest.
struct LiveScreenLeadTableTests {
    static func screen(lead count: Int) -> LiveScreen {
        var screen = LiveScreenLayoutTests.fleet(160, problems: [5])
        screen.lead = LiveTable(columns: [LiveColumn("RADIO"), LiveColumn("STATE")],
                                rows: (0..<count).map { LiveRow(["radio-\($0)", $0 == 2 ? "offline" : "online"], status: $0 == 2 ? .problem : .active) })
        return screen
    }

    @Test func aFewRadiosAllShownAboveTheBeacons() {
        let lines = Self.screen(lead: 3).lines(width: 80, height: 24)
        #expect(lines.count == 24)
        #expect(lines.prefix(5).map(\.role) == [.title, .header, .row(.problem), .row(.active), .row(.active)])
        #expect(lines[1].text == "RADIO    STATE" && lines[2].text == "radio-2  offline")
        #expect(lines[5].role == .header && lines[5].text.hasPrefix("BEACON"))
        #expect(lines[6].text.hasPrefix("beacon-5 "), "the main table's problems first")
        #expect(lines.contains(LiveLine("… and 146 more, 0 with errors", role: .more)))
        #expect(lines.last?.role == .summary)
    }

    @Test func manyRadiosTakeAtMostHalf() {
        // 24 lines: title, summary, the beacons' header, 2 messages: 19 left; the radios get 9
        // (header, 7 rows, "more"), the beacons 10 (9 rows and "more").
        let lines = Self.screen(lead: 40).lines(width: 80, height: 24)
        #expect(lines.count == 24)
        #expect(lines.filter { $0.text.hasPrefix("radio-") }.count == 7)
        #expect(lines.contains(LiveLine("… and 33 more, 0 with errors", role: .more)))
        #expect(lines.filter { $0.text.hasPrefix("beacon-") }.count == 9)
        // Too small for both: the main table only.
        let small = Self.screen(lead: 3).lines(width: 80, height: 6)
        #expect(!small.contains { $0.text.hasPrefix("radio-") } && small.count <= 6)
    }

    @Test(arguments: [(80, 24), (40, 10), (20, 5), (1, 1), (200, 3), (10, 2), (80, 7)])
    func fitsEverySize(width: Int, height: Int) {
        let lines = Self.screen(lead: 12).lines(width: width, height: height)
        #expect(lines.count <= height)
        #expect(lines.allSatisfy { $0.text.count <= width })
        #expect(lines.last?.role == .summary)
    }
}
