// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc  // signal numbers only; the calls go through SystemCalls
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
/// While the value lives (until ``cancel()``) the signals' default actions are replaced by a
/// handler that only writes the signal's number into a pipe (async-signal-safe), whichever
/// thread the kernel picks; a dispatch source reads the pipe and delivers it (`SignalRouting`).
/// So a signal is never lost, however many threads the program already runs. A second signal
/// while a stop is under way ends the process at once with status 130 (128 + SIGINT), for a
/// controller that never answers its teardown.
///
/// SIGHUP is handled only when asked for (`hangup:`): each one then calls that handler, one at a
/// time on a queue of its own, so a reload that takes long never holds a stop signal up.
public final class StopSignals: Sendable {
    private struct State {
        /// The first signal that arrived, once one has.
        var received: Int32?
        var handlers: [@Sendable (Int32) -> Void] = []
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())
    /// The signals handled (SIGINT and SIGTERM unless told otherwise).
    public let signals: [Int32]
    /// This value's entry in ``SignalRouting``, until ``cancel()``.
    private let registration: Int

    /// Starts handling `signals`: from here on they no longer end the process. `hangup`: called
    /// on each SIGHUP (a reload, say), which then no longer ends the process either.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM], hangup: (@Sendable () -> Void)? = nil) {
        self.signals = signals
        let box = WeakStopSignals()
        // Each hangup on a queue of its own, so a reload that takes long never holds a stop up.
        var onHangup: (@Sendable () -> Void)? = nil
        if let hangup {
            let hangups = DispatchQueue(label: "beacon.hangups")
            onHangup = { hangups.async { hangup() } }
        }
        let stop: @Sendable (Int32) -> Void = { number in box.deliver(number) }
        registration = SignalRouting.register(signals: Set(signals), hangup: onHangup, stop: stop)
        box.attach(self)
    }

    /// The signal's name as `kill -l` prints it, for messages ("SIGINT: stopping").
    public static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
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

    /// Stops handling the signals and restores their default actions (unless another live value
    /// still handles them).
    public func cancel() { SignalRouting.unregister(registration) }

    /// Acts as if `number` had arrived: the first call runs the handlers and wakes the waiters,
    /// a later one ends the process with status 130. What the dispatch source calls; tests call
    /// it to take the handler's path without sending a signal to the process.
    public func deliver(_ number: Int32) { received(number) }

    private func received(_ number: Int32) {
        let first: (handlers: [@Sendable (Int32) -> Void], waiters: [CheckedContinuation<Int32, Never>])? = state.withLock { s in
            guard s.received == nil else { return nil }
            s.received = number
            defer { s.handlers = []; s.waiters = [] }
            return (s.handlers, s.waiters)
        }
        guard let first else {
            // The program is already stopping and the user insists.
            LiveSystemCalls().exit(130)
        }
        for waiter in first.waiters { waiter.resume(returning: number) }
        // Handlers run off the signal queue, so a second signal is handled even if one blocks.
        for handler in first.handlers { DispatchQueue.global().async { handler(number) } }
    }
}

extension StopSignals {
    /// Runs `operation` as a task and cancels it on the first SIGINT or SIGTERM (and on SIGHUP:
    /// with nothing to reload, a hangup means the terminal is gone, so the work ends as on
    /// SIGINT rather than going on unseen). `onStop` runs first, with the signal's number (to say
    /// so); a second signal ends the process at once. The signals are handled before the task
    /// starts, so whatever it prints ("Ctrl-C stops") is true by then.
    public static func value<T: Sendable>(of operation: @escaping @Sendable () async -> T,
                                          onStop: @escaping @Sendable (Int32) -> Void = { _ in }) async -> T {
        let running = Mutex<(task: Task<T, Never>?, stopped: Bool)>((nil, false))
        let stop: @Sendable () -> Void = {
            let task = running.withLock { r in
                r.stopped = true
                return r.task
            }
            task?.cancel()
        }
        let signals = StopSignals([SIGINT, SIGTERM, SIGHUP])
        defer { signals.cancel() }
        signals.onStop { number in
            onStop(number)
            stop()
        }
        let task = Task { await operation() }
        if running.withLock({ r in
            r.task = task
            return r.stopped
        }) { task.cancel() }
        return await task.value
    }
}
