// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser

/// Ends a command with a message on standard error and an exit status.
enum CommandFailure {
    /// Prints `error: message` and returns the status to throw.
    static func exit(_ message: String, code: ExitCode = ExitStatus.runtimeFailure) -> ExitCode {
        LineOutput.err("error: \(message)")
        return code
    }
}
