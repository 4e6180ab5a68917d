// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconEmulator
import BeaconScanner
import Synchronization

/// Runs a ``ScanSession`` until its duration passes or SIGINT/SIGTERM arrives, and turns its
/// failure into the exit status (1, with the reason on standard error). `also` gets each update
/// after the output has taken it (so a page that follows the output sees it).
enum ScanRun {
    static func run(_ session: ScanSession, duration: Duration?, output: ScanOutput,
                    also: @escaping @Sendable (ScanUpdate) -> Void = { _ in }) async throws(ExitCode) {
        let failure = await StopSignals.value(of: { () async -> ScanSession.Failure? in
            do throws(ScanSession.Failure) {
                try await session.run(duration: duration) { update in
                    output.handle(update)
                    also(update)
                }
                return nil
            } catch {
                return error
            }
        }, onStop: SignalNotice.stopping)
        // The live view gives the screen back before any error is printed.
        output.finish()
        if let failure {
            throw CommandFailure.exit("\(failure)")
        }
    }
}
