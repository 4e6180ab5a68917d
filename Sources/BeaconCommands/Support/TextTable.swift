// SPDX-License-Identifier: GPL-2.0-or-later

/// A plain-text table with left-aligned columns separated by two spaces, for terminals and for
/// `column`/`awk` alike. The last column is not padded, so lines carry no trailing blanks.
struct TextTable {
    let headers: [String]
    private(set) var rows: [[String]] = []

    init(headers: [String]) {
        self.headers = headers
    }

    mutating func append(_ row: [String]) {
        precondition(row.count == headers.count, "a table row needs one cell per column")
        rows.append(row)
    }

    /// The header line followed by one line per row.
    var lines: [String] {
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
