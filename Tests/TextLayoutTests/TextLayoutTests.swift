// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import Testing

/// The plain-text layouts every front end shares: tables, and prose wrapped to a width.
struct TextLayoutTests {
    @Test("a plain table pads every column but the last, so lines carry no trailing blanks")
    func table() {
        var table = TextTable(headers: ["A", "LONGER"])
        table.append(["wide cell", "x"])
        #expect(table.lines == ["A          LONGER", "wide cell  x"])
    }

    @Test("a short line stays whole; a long one breaks at spaces with a hanging indent")
    func wrapping() {
        #expect(LineWrapping.wrap("  short") == ["  short"])
        let lines = LineWrapping.wrap("  warning: " + String(repeating: "word ", count: 30), width: 40)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") && !$0.hasPrefix("     ") })
    }

    @Test("a number never ends a line whose unit starts the next")
    func numbersStayWithTheirUnits() {
        #expect(LineWrapping.words("every 850 ms (goal 1 s) at 3 events") == ["every", "850 ms", "(goal", "1 s)", "at", "3 events"])
        for width in 10...30 {
            for line in LineWrapping.wrap("a beacon may go unseen for 850 ms (goal 1 s) with 3 events per turn", width: width) {
                #expect(line.last?.isNumber != true, "\(line)")
            }
        }
    }
}
