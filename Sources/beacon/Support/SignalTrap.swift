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
        // Reloads run on a queue of their own (one at a time): whatever a reload waits on, a
        // stop signal is still handled at once on `queue`.
        let reloads = DispatchQueue(label: "beacon.reloads")
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hangup.setEventHandler { reloads.async { onReload() } }
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
    /// Runs `operation` as a task, cancelling it on SIGINT/SIGTERM (a note on standard error; a
    /// second one quits at once) and on SIGHUP, which for a command with nothing to reload means
    /// what it always meant: the terminal is gone, so the run ends as on SIGINT rather than going
    /// on unseen. The signals are handled before the task starts, so whatever it prints (its
    /// "Ctrl-C stops") is true by then; a signal before the task exists cancels it at its start.
    static func value<T: Sendable>(of operation: @escaping @Sendable () async -> T) async -> T {
        let running = Mutex<(task: Task<T, Never>?, stopped: Bool)>((nil, false))
        let stop: @Sendable () -> Void = {
            let task = running.withLock { r in
                r.stopped = true
                return r.task
            }
            task?.cancel()
        }
        let trap = SignalTrap(
            onStop: { number in
                LineOutput.err("\(SignalTrap.name(number)): stopping (again to quit at once)")
                stop()
            },
            onReload: {
                LineOutput.err("\(SignalTrap.hangupMessage)")
                stop()
            })
        defer { trap.cancel() }
        let task = Task { await operation() }
        if running.withLock({ r in
            r.task = task
            return r.stopped
        }) { task.cancel() }
        return await task.value
    }

    /// What a run that stops on SIGHUP says.
    static let hangupMessage = "SIGHUP: the terminal hung up (or a hangup was sent): stopping"

    /// Whether the terminal the run was started on has hung up (closed window, lost ssh
    /// connection): a standard descriptor that is a terminal then polls as hung up. Pipes and
    /// files are not looked at (a pipe at end of file is no hangup). A run that reloads on SIGHUP
    /// asks this first, so closing its terminal still stops it.
    static var terminalHungUp: Bool {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { continue }
            var watch = pollfd(fd: fd, events: 0, revents: 0)
            if poll(&watch, 1, 0) > 0, watch.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        }
        return false
    }
}
