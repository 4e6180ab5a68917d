// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc  // signal numbers only; the calls go through SystemCalls (and SignalSafe in the handler)
#endif

/// The write end of the signal pipe, set once (before any handler is installed) and never
/// changed: the signal handler reads it, so it must be a plain stored global, not a lazy one.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// What the kernel runs on a routed signal, on whatever thread it picked: only `write(2)` of
/// the signal's number (async-signal-safe, keeping `errno` as it was: `SignalSafe`).
private func routeSignal(_ number: Int32) {
    SignalSafe.write(signalPipeWriteEnd, UInt8(truncatingIfNeeded: number))
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
        /// The signals our handler is installed for.
        var installed: Set<Int32> = []
        var reader: (any DispatchSourceRead)?
    }

    private static let table = Mutex(Table())
    private static let system: any SystemCalls = LiveSystemCalls()

    /// Routes `signals` (and SIGHUP when `hangup` is given) to `stop` / `hangup` until
    /// ``unregister(_:)``; returns the registration.
    static func register(signals: Set<Int32>, hangup: (@Sendable () -> Void)?, stop: @escaping @Sendable (Int32) -> Void) -> Int {
        table.withLock { t in
            startReading(&t)
            let id = t.next
            t.next += 1
            t.entries[id] = Entry(signals: signals, hangup: hangup, stop: stop)
            for number in signals.union(hangup == nil ? [] : [SIGHUP]) where !t.installed.contains(number) {
                // sigaction(2) fails only for a number that is no signal, which nothing can send.
                if case .success = system.handleSignal(number, with: { routeSignal($0) }) { t.installed.insert(number) }
            }
            // A signal blocked in this thread (an older version of this type blocked them) would
            // never reach the handler here.
            system.unblockSignals(Array(t.installed))
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
            for number in t.installed where !wanted.contains(number) {
                system.restoreDefaultAction(ofSignal: number)
                t.installed.remove(number)
            }
        }
    }

    /// Creates the pipe and its reader once per process.
    private static func startReading(_ t: inout Table) {
        guard t.reader == nil else { return }
        let ends: (read: Int32, write: Int32)
        switch system.makeNonBlockingPipe() {
        case .success(let made): ends = made
        case .failure(let error): preconditionFailure("no pipe for signals: \(error)")
        }
        signalPipeWriteEnd = ends.write
        let readEnd = ends.read
        let reader = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: DispatchQueue(label: "beacon.stop-signals"))
        reader.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            // Through the seam, which retries EINTR; EAGAIN (the pipe is empty) or an error ends the round.
            while case .success(let n) = bytes.withUnsafeMutableBytes({ system.read(readEnd, into: $0) }), n > 0 {
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
