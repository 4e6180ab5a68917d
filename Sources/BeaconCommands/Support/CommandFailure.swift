// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import HCI

/// Ends a command with a message on standard error and an exit status.
enum CommandFailure {
    /// Prints `error: message` (its terms, an error's advice say, named as this tool names them:
    /// ``CommandLineTerms``) and returns the status to throw. An interpolated error keeps its
    /// terms (`"--btsnoop: \(error)"`).
    static func exit(_ message: TermedText, code: ExitCode = ExitStatus.runtimeFailure) -> ExitCode {
        LineOutput.err("error: \(CommandLineTerms.text(message))")
        return code
    }
}
