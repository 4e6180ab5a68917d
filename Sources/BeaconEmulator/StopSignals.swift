// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT (Ctrl-C) and SIGTERM turned into an asynchronous stop, so a program that runs a fleet
/// takes its beacons off the air before it ends instead of dying with them still advertising.
///
/// Opt-in: nothing in the library touches signals unless a program creates one of these.
///
/// ```swift
/// let signals = StopSignals()             // from here on, Ctrl-C no longer kills the process
/// let fleet = RunningFleet(connections: connections)
/// try await fleet.start(beacons)
/// signals.onStop { _ in fleet.requestStop() }
/// let outcome = await fleet.outcome()     // returns once everything is off the air
/// ```
///
/// The signals' default actions are ignored while the value lives (until ``cancel()``), and a
/// dispatch source delivers them instead. Create it first thing, before the program starts other
/// threads: it blocks the signals in the calling thread, and threads started later inherit that,
/// so the signals wait for the dispatch source. A thread that already runs with them unblocked
/// could take one, and an ignored signal is lost. A second signal while a stop is under way ends the
/// process at once with status 130 (128 + SIGINT), for a controller that never answers its teardown.
public final class StopSignals: @unchecked Sendable {
    // Dispatch sources are thread-safe; they are kept so they live as long as this value, and
    // never changed after `init` (`cancelled` makes `cancel()` act once).
    private var sources: [any DispatchSourceSignal] = []
    private let cancelled = Atomic<Bool>(false)

    private struct State {
        /// The first signal that arrived, once one has.
        var received: Int32?
        var handlers: [@Sendable (Int32) -> Void] = []
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())
    /// The signals handled (SIGINT and SIGTERM unless told otherwise).
    public let signals: [Int32]

    /// Starts handling `signals`: from here on they no longer end the process.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        self.signals = signals
        let queue = DispatchQueue(label: "beacon.stop-signals")
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in signals { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.received(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { cancel() }

    /// The first signal that arrived, or nil while none has.
    public var received: Int32? { state.withLock { $0.received } }

    /// Calls `handler` (off the signal queue, with the signal's number) on the first signal; at
    /// once if one has already arrived.
    public func onStop(_ handler: @escaping @Sendable (Int32) -> Void) {
        let already: Int32? = state.withLock { s in
            if s.received == nil { s.handlers.append(handler) }
            return s.received
        }
        if let already { DispatchQueue.global().async { handler(already) } }
    }

    /// Waits for the first signal and returns its number (at once if one has already arrived).
    public func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let already: Int32? = state.withLock { s in
                if s.received == nil { s.waiters.append(continuation) }
                return s.received
            }
            if let already { continuation.resume(returning: already) }
        }
    }

    /// Stops handling the signals and restores their default actions.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .relaxed) else { return }
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }

    private func received(_ number: Int32) {
        let first: (handlers: [@Sendable (Int32) -> Void], waiters: [CheckedContinuation<Int32, Never>])? = state.withLock { s in
            guard s.received == nil else { return nil }
            s.received = number
            defer { s.handlers = []; s.waiters = [] }
            return (s.handlers, s.waiters)
        }
        guard let first else {
            // The program is already stopping and the user insists.
            exit(130)
        }
        for waiter in first.waiters { waiter.resume(returning: number) }
        // Handlers run off the signal queue, so a second signal is handled even if one blocks.
        for handler in first.handlers { DispatchQueue.global().async { handler(number) } }
    }
}
