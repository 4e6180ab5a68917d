// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconSystem
#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP as the command line means it: the terminal hung up, or a reload was asked for.
enum TerminalHangup {
    /// What a run that stops on SIGHUP says.
    static let message = "SIGHUP: the terminal hung up (or a hangup was sent): stopping"

    /// Whether the terminal the run was started on has hung up (closed window, lost ssh
    /// connection): a standard descriptor that is a terminal then polls as hung up. Pipes and
    /// files are not looked at (a pipe at end of file is no hangup). A run that reloads on SIGHUP
    /// asks this first, so closing its terminal still stops it.
    static var hungUp: Bool {
        let system = LiveSystemCalls()
        return StandardStream.all.contains { system.terminalHasHungUp($0) }
    }
}

/// What the command line says when a signal stops a scan or a run.
enum SignalNotice {
    /// Says that signal `number` stops the work (SIGHUP: the terminal is gone), and lets output
    /// nobody reads no longer hold the stop up.
    static func stopping(_ number: Int32) {
        LineOutput.stopRequested()
        LineOutput.err(number == SignalNumber.hangup ? TerminalHangup.message : "\(StopSignals.name(number)): stopping (again to quit at once)")
    }
}

extension StopSignals {
    /// SIGINT, SIGTERM and SIGHUP, each a stop: for a run with nothing to reload (an agent, a
    /// site without a broker, `play --site`), where a hangup means the terminal is gone and the
    /// work ends with its teardown rather than being killed.
    static func withHangup() -> StopSignals { StopSignals([SIGINT, SIGTERM, SignalNumber.hangup]) }

    /// Runs `stop` on the first signal, saying so when it is a hangup.
    func onStopSayingHangup(_ stop: @escaping @Sendable () -> Void) {
        onStop { number in
            if number == SignalNumber.hangup { SignalNotice.stopping(number) }
            stop()
        }
    }
}
