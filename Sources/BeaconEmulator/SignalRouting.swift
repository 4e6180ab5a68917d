// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The write end of the signal pipe, set once (before any handler is installed) and never
/// changed: the signal handler reads it, so it must be a plain stored global, not a lazy one.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// What the kernel runs on a routed signal, on whatever thread it picked: only `write(2)` of
/// the signal's number (async-signal-safe), keeping `errno` as it was.
private func routeSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// The process-wide half of ``StopSignals``: one handler per signal writes into a non-blocking
/// pipe, and a dispatch read source on the other end hands each signal to the live values that
/// asked for it. The self-pipe is the classic way to take a signal that may land on any thread:
/// dispatch's own signal sources read a signalfd, which only sees a signal that every thread
/// blocks, and a program has threads (Swift's concurrency pool, dispatch's) before it can block
/// anything, so a signal could be taken by one of them and lost.
enum SignalRouting {
    private struct Entry {
        var signals: Set<Int32>
        var hangup: (@Sendable () -> Void)?
        var stop: @Sendable (Int32) -> Void
    }

    private struct Table {
        var entries: [Int: Entry] = [:]
        var next = 0
        /// The signals our handler is installed for, with the action it replaced.
        var installed: [Int32: sigaction] = [:]
        var reader: (any DispatchSourceRead)?
    }

    private static let table = Mutex(Table())

    /// Routes `signals` (and SIGHUP when `hangup` is given) to `stop` / `hangup` until
    /// ``unregister(_:)``; returns the registration.
    static func register(signals: Set<Int32>, hangup: (@Sendable () -> Void)?, stop: @escaping @Sendable (Int32) -> Void) -> Int {
        table.withLock { t in
            startReading(&t)
            let id = t.next
            t.next += 1
            t.entries[id] = Entry(signals: signals, hangup: hangup, stop: stop)
            for number in signals.union(hangup == nil ? [] : [SIGHUP]) where t.installed[number] == nil {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { routeSignal($0) }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                var previous = sigaction()
                sigaction(number, &action, &previous)
                t.installed[number] = previous
            }
            // A signal blocked in this thread (an older version of this type blocked them) would
            // never reach the handler here.
            var mask = sigset_t()
            sigemptyset(&mask)
            for number in t.installed.keys { sigaddset(&mask, number) }
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
            return id
        }
    }

    /// Ends a registration; a signal nobody handles any more gets its default action back.
    static func unregister(_ id: Int) {
        table.withLock { t in
            guard t.entries.removeValue(forKey: id) != nil else { return }
            let wanted = t.entries.values.reduce(into: Set<Int32>()) { set, entry in
                set.formUnion(entry.signals)
                if entry.hangup != nil { set.insert(SIGHUP) }
            }
            for (number, _) in t.installed where !wanted.contains(number) {
                signal(number, SIG_DFL)
                t.installed[number] = nil
            }
        }
    }

    /// Creates the pipe and its reader once per process.
    private static func startReading(_ t: inout Table) {
        guard t.reader == nil else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { preconditionFailure("no pipe for signals: errno \(errno)") }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd = ends[1]
        let readEnd = ends[0]
        let reader = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: DispatchQueue(label: "beacon.stop-signals"))
        reader.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            // Through the seam, which retries EINTR; EAGAIN (the pipe is empty) or an error ends the round.
            while case .success(let n) = bytes.withUnsafeMutableBytes({ LiveSystemCalls().read(readEnd, into: $0) }), n > 0 {
                for byte in bytes[0..<n] { deliver(Int32(byte)) }
            }
        }
        reader.resume()
        t.reader = reader
    }

    /// Hands `number` to every registration that asked for it.
    private static func deliver(_ number: Int32) {
        let entries = table.withLock { Array($0.entries.values) }
        for entry in entries {
            if number == SIGHUP, let hangup = entry.hangup {
                hangup()
            } else if entry.signals.contains(number) {
                entry.stop(number)
            }
        }
    }
}

/// A weak reference, so the routing table does not keep a ``StopSignals`` alive; a signal that
/// comes between the registration and the value's last line of `init` is kept for it.
final class WeakStopSignals: Sendable {
    private struct State {
        weak var value: StopSignals?
        var early: [Int32] = []
    }

    private let state = Mutex(State())

    /// Points at `value` and gives it what arrived before.
    func attach(_ value: StopSignals) {
        let early = state.withLock { s in
            s.value = value
            defer { s.early = [] }
            return s.early
        }
        for number in early { value.deliver(number) }
    }

    /// Delivers `number` to the value, or keeps it until ``attach(_:)``.
    func deliver(_ number: Int32) {
        let value = state.withLock { s -> StopSignals? in
            if s.value == nil { s.early.append(number) }
            return s.value
        }
        value?.deliver(number)
    }
}
