// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP turned into calls on a dispatch queue, so a run can stop cleanly
/// (advertising off, sets removed) instead of dying with beacons left on air.
///
/// The default actions are ignored first (`signal(…, SIG_IGN)`), then dispatch sources deliver
/// the signals. A second SIGINT/SIGTERM while stopping exits at once with 130 (128 + SIGINT),
/// for a controller that does not answer the teardown.
final class SignalTrap: @unchecked Sendable {
    // Dispatch sources are thread-safe; they are only kept here so they live as long as the trap.
    private var sources: [any DispatchSourceSignal] = []
    /// How many SIGINT/SIGTERM arrived (a class, so the handlers can share it).
    private final class Count: Sendable { let value = Atomic<Int>(0) }

    /// `onStop` runs on the first SIGINT/SIGTERM (with the signal number), `onReload` on each SIGHUP.
    init(onStop: @escaping @Sendable (Int32) -> Void, onReload: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "beacon.signals")
        let stops = Count()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [stops] in
                if stops.value.add(1, ordering: .relaxed).newValue > 1 {
                    // The run is already stopping and the user insists.
                    exit(130)
                }
                // Output nobody reads must not hold the stop up; and onStop runs off this queue,
                // so a second signal is always handled even if onStop blocks.
                LineOutput.stopRequested()
                DispatchQueue.global().async { onStop(number) }
            }
            source.resume()
            sources.append(source)
        }
        signal(SIGHUP, SIG_IGN)
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hangup.setEventHandler { onReload() }
        hangup.resume()
        sources.append(hangup)
    }

    /// Stops listening and restores the default actions.
    func cancel() {
        for s in sources { s.cancel() }
        sources = []
        for number in [SIGINT, SIGTERM, SIGHUP] { signal(number, SIG_DFL) }
    }

    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}

extension SignalTrap {
    /// Waits for `task`, cancelling it on SIGINT/SIGTERM (a note on standard error; a second one
    /// quits at once); SIGHUP is ignored. For the commands that have nothing to reload.
    static func value<T: Sendable>(of task: Task<T, Never>) async -> T {
        let trap = SignalTrap(
            onStop: { number in
                LineOutput.err("\(SignalTrap.name(number)): stopping (again to quit at once)")
                task.cancel()
            },
            onReload: {})
        defer { trap.cancel() }
        return await task.value
    }
}

