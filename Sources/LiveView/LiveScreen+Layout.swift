// SPDX-License-Identifier: GPL-2.0-or-later

extension LiveScreen {
    /// At most this many messages under the table (the rest went to standard error or wait for
    /// the end of the run).
    public static let shownMessages = 3

    /// The screen fitted to `width` columns and `height` lines: never more lines than `height`,
    /// no line wider than `width`. The title and the summary come first in the budget, then the
    /// column headers, then the newest messages (at most a third of what is left), then the
    /// ``lead`` table (at most half of what is left, and only when the main table keeps two
    /// lines), then the rows, problems first; rows that do not fit become one line, "… and 140
    /// more, 0 with errors". Columns that do not fit are dropped by their
    /// ``LiveColumn/dropOrder``, then lines are cut with "…".
    public func lines(width: Int, height: Int) -> [LiveLine] {
        guard width > 0, height > 0 else { return [] }
        let summaryLine = LiveLine(Self.fit(summary, width), role: .summary)
        guard height > 1 else { return [summaryLine] }
        let titleLine = LiveLine(Self.fit(title, width), role: .title)
        var budget = height - 2
        let showsHeader = !columns.isEmpty && !rows.isEmpty && budget >= 2
        if showsHeader { budget -= 1 }
        let messageCount = min(messages.count, Self.shownMessages, budget / 3)
        budget -= messageCount

        var out = [titleLine]
        if let lead, !lead.rows.isEmpty, budget >= 4 {
            // Its header and as many rows as fit in half the room; the main table keeps the rest.
            let room = min(lead.rows.count + 1, budget / 2)
            out += Self.tableLines(columns: lead.columns, rows: lead.rows, width: width, room: room - 1, header: true)
            budget -= room
        }
        if rows.isEmpty {
            if budget > 0, !placeholder.isEmpty { out.append(LiveLine(Self.fit(placeholder, width), role: .message)) }
        } else {
            out += Self.tableLines(columns: columns, rows: rows, width: width, room: budget, header: showsHeader)
        }
        for message in messages.suffix(messageCount) { out.append(LiveLine(Self.fit(message, width), role: .message)) }
        out.append(summaryLine)
        return out
    }

    /// A table's lines in `room` lines (and its header before them): its rows, problems first,
    /// those that do not fit summarised in the last line.
    static func tableLines(columns: [LiveColumn], rows: [LiveRow], width: Int, room: Int, header: Bool) -> [LiveLine] {
        let ordered = Self.problemsFirst(rows)
        let visible: ArraySlice<LiveRow>
        var more: LiveLine?
        if ordered.count <= room {
            visible = ordered[...]
        } else {
            let shown = max(0, room - 1)
            visible = ordered.prefix(shown)
            let hidden = ordered.dropFirst(shown)
            if room > 0 {
                let problems = hidden.filter { $0.status == .problem }.count
                more = LiveLine(Self.fit("… and \(hidden.count) more, \(problems) with errors", width), role: .more)
            }
        }
        let table = Self.table(columns: columns, rows: Array(visible), width: width)
        var out: [LiveLine] = []
        if header { out.append(LiveLine(table.header, role: .header)) }
        for (row, text) in zip(visible, table.rows) { out.append(LiveLine(text, role: .row(row.status))) }
        if let more { out.append(more) }
        return out
    }

    /// Problems first, otherwise in the caller's order (a stable sort).
    static func problemsFirst(_ rows: [LiveRow]) -> [LiveRow] {
        rows.filter { $0.status == .problem } + rows.filter { $0.status != .problem }
    }

    /// The header and rows as aligned text, with the columns that fit `width`.
    static func table(columns: [LiveColumn], rows: [LiveRow], width: Int) -> (header: String, rows: [String]) {
        let cleaned = rows.map { $0.cells.map(printable) }
        let natural = columns.enumerated().map { i, c in
            cleaned.reduce(c.title.count) { max($0, i < $1.count ? $1[i].count : 0) }
        }
        var kept = Array(columns.indices)
        func total() -> Int { kept.reduce(0) { $0 + natural[$1] } + 2 * max(0, kept.count - 1) }
        while total() > width {
            // The droppable column with the highest drop order (the rightmost of equals) goes.
            guard let drop = kept.filter({ columns[$0].dropOrder > 0 }).max(by: { columns[$0].dropOrder <= columns[$1].dropOrder }) else { break }
            kept.removeAll { $0 == drop }
        }
        func line(_ cells: [String]) -> String {
            let parts = kept.map { i -> String in
                let cell = i < cells.count ? cells[i] : ""
                let pad = String(repeating: " ", count: natural[i] - cell.count)
                return columns[i].alignment == .right ? pad + cell : cell + pad
            }
            var text = parts.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return fit(text, width)
        }
        return (line(columns.map(\.title)), cleaned.map(line))
    }

    /// `text` in at most `width` columns: cut with "…" when longer; control characters (from a
    /// profile's names, say) shown as "?" so they cannot move the cursor.
    public static func fit(_ text: String, _ width: Int) -> String {
        let clean = printable(text)
        guard clean.count > width else { return clean }
        guard width > 1 else { return String(clean.prefix(max(0, width))) }
        return String(clean.prefix(width - 1)) + "…"
    }

    /// One column per character: control characters become "?", tabs a space.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { s in
            if s == "\t" { return " " }
            return s.value < 0x20 || s.value == 0x7F || (0x80..<0xA0).contains(s.value) ? "?" : s
        }))
    }
}
