// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Synchronization

/// Output for the long-running commands, written from several tasks at once (the run, the air
/// log follower, the live table): whole lines, never interleaved, and unbuffered so that a pipe
/// or a log file sees each line as it happens rather than when the process exits.
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

    /// Whether standard output is a terminal (the live table), not a pipe or a file (log lines).
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
