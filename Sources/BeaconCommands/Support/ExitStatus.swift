// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconSystem

/// The exit codes `beacon` promises (listed in `beacon --help`).
enum ExitStatus {
    /// Everything worked.
    static let success = ExitCode.success
    /// Something outside the input failed: a file could not be read, an adapter is missing.
    static let runtimeFailure = ExitCode(1)
    /// The command line is wrong (ArgumentParser's parse and `validate()` errors).
    static let usage = ExitCode(2)
    /// The input is wrong: a payload that does not decode, a profile with issues (sysexits EX_DATAERR).
    static let dataError = ExitCode(65)

    /// Parses and runs a command like ArgumentParser's own `main()`, except that usage errors
    /// (which ArgumentParser reports as `EX_USAGE`, 64) exit with ``usage`` (2).
    static func run<Root: AsyncParsableCommand>(_ root: Root.Type, arguments: [String]) async -> Never {
        do {
            var command = try await Root.asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            // An output that failed during the run was reported then; the status says so.
            LiveSystemCalls().exit(OutputFailures.any ? runtimeFailure.rawValue : success.rawValue)
        } catch {
            let code = Root.exitCode(for: error)
            let message = Root.fullMessage(for: error)
            if !message.isEmpty {
                // Help and --version are not errors: they go to standard output.
                if code.isSuccess { LineOutput.out(HelpExamples.atTheEnd(message)) } else { LineOutput.err(message) }
            }
            LiveSystemCalls().exit(code == .validationFailure ? usage.rawValue : code.rawValue)
        }
    }
}

/// Keeps the worst exit status seen while processing several inputs, so that one bad input does
/// not stop the others from being reported.
struct ExitTally {
    private(set) var status: ExitCode = ExitStatus.success

    /// Records a failure; a runtime failure outranks a data error (it means an input was not
    /// even examined).
    mutating func record(_ code: ExitCode) {
        if status == ExitStatus.runtimeFailure { return }
        if code != ExitStatus.success { status = code }
    }

    /// Throws the recorded status (as ArgumentParser's `ExitCode`, which prints nothing) if it
    /// is not success.
    func finish() throws(ExitCode) {
        if status != ExitStatus.success { throw status }
    }
}
