// SPDX-License-Identifier: GPL-2.0-or-later

/// A plain-text table with left-aligned columns separated by two spaces, for terminals and for
/// `column`/`awk` alike (the CLI's `list`, `adapters` and a plan's per-beacon table). The last
/// column is not padded, so lines carry no trailing blanks.
public struct TextTable: Sendable {
    /// The column titles, the first line.
    public let headers: [String]
    /// The rows appended so far.
    public private(set) var rows: [[String]] = []

    /// An empty table with these column titles.
    public init(headers: [String]) {
        self.headers = headers
    }

    /// Adds a row: one cell per column.
    public mutating func append(_ row: [String]) {
        precondition(row.count == headers.count, "a table row needs one cell per column")
        rows.append(row)
    }

    /// The header line followed by one line per row.
    public var lines: [String] {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                if column == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[column] - cell.count + 2)
                }
            }
            return line
        }
    }
}
