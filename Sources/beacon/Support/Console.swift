// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// Standard output and standard error, kept apart: data to stdout, messages to stderr.
enum Console {
    /// Writes a line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Reads standard input line by line until end of file.
    static func standardInputLines() -> [String] {
        var lines: [String] = []
        while let line = readLine(strippingNewline: true) { lines.append(line) }
        return lines
    }
}
