// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Synchronization

/// The CLI's one output layer: data on standard output, diagnostics on standard error, nothing
/// written any other way (no bare `print`). Lines may come from several tasks at once (the run,
/// the air log follower, the live table): each is written whole, never interleaved, and
/// unbuffered so that a pipe or a log file sees it as it happens rather than when the process
/// exits.
enum LineOutput {
    private static let lock = Mutex<Void>(())

    /// A line of data on standard output.
    static func out(_ line: String) { write(line + "\n", to: .standardOutput) }

    /// A diagnostic line on standard error.
    static func err(_ line: String) { write(line + "\n", to: .standardError) }

    /// Text as is (the live table writes its own cursor movements).
    static func rawOut(_ text: String) { write(text, to: .standardOutput) }

    private static func write(_ text: String, to handle: FileHandle) {
        lock.withLock { _ in handle.write(Data(text.utf8)) }
    }

    /// Reads standard input line by line until end of file (`decode` without arguments).
    static func standardInputLines() -> [String] {
        var lines: [String] = []
        while let line = readLine(strippingNewline: true) { lines.append(line) }
        return lines
    }

    /// Whether standard output is a terminal (the live table), not a pipe or a file (log lines).
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
