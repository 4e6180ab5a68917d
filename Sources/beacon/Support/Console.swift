// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// Standard output and standard error, kept apart: data to stdout, messages to stderr.
enum Console {
    /// Writes a line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Calls `body` with each line of standard input as soon as it arrives, until end of file:
    /// a producer that writes a line now and then gets each answer at once, and input of any
    /// length takes constant memory.
    static func forEachStandardInputLine(_ body: (String) -> Void) {
        while let line = readLine(strippingNewline: true) { body(line) }
    }
}
