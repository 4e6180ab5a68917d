// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Synchronization

/// Output files that failed while the run went on (`--air-log`, `--btsnoop`): each failure is
/// printed once when it happens, the run carries on without that file, and the exit status is
/// then ``ExitStatus/runtimeFailure`` (see ``ExitStatus/run(_:arguments:)``).
enum OutputFailures {
    private static let seen = Atomic<Bool>(false)

    /// Whether an output failed during this run.
    static var any: Bool { seen.load(ordering: .acquiring) }

    /// Prints `error: message` and makes the run's exit status a failure.
    static func report(_ message: String) {
        seen.store(true, ordering: .releasing)
        LineOutput.err("error: \(message)")
    }

    /// A file size limit (`ulimit -f`) makes a write fail with EFBIG, reported like any other
    /// write error, instead of killing the process (SIGXFSZ's default).
    static func reportFileSizeLimitAsAnError() { LiveSystemCalls().ignoreSignal(SignalNumber.fileSizeLimitExceeded) }
}
