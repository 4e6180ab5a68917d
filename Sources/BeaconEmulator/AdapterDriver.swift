// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Synchronization

/// One controller's advertising while a fleet runs, owned by one serial loop: it alone talks to
/// the backend, so commands to the controller are never interleaved and never cut off by a
/// cancelled task.
///
/// Requests arrive in a mailbox: a new target (the adapter's share of the latest plan) replaces
/// any target not yet applied (the last one always wins, and applying it settles every earlier
/// generation); a stop request ends the loop after the step in progress, with the teardown.
final class AdapterDriver: Sendable {
    /// What the adapter should carry: the states of its rotation (one when nothing rotates).
    struct Target: Sendable {
        var generation: Int
        var states: [AdvertisingState]
        var slotDuration: Duration
        var rotates: Bool { states.count > 1 }
    }

    private struct Mailbox {
        var target: Target?
        var stop = false
        /// A fault found outside the loop (a Hardware Error event): the loop ends with it.
        var failure: String?
        /// How long after its beacons first went on air to stop by itself: no turn due at or
        /// after then starts, so a run of N turns' length carries out exactly N turns.
        var runTime: Duration?
    }

    let backend: any AdvertisingBackend
    var adapter: String { backend.adapter }
    private let mailbox = Mutex(Mailbox())
    private let wakeup = Wakeup()
    private let report: @Sendable (EmulatorEvent) -> Void
    /// How long each teardown exchange may take (nil: the controller session's command timeout).
    let teardownTimeout: Duration?

    init(backend: any AdvertisingBackend, teardownTimeout: Duration? = nil, report: @escaping @Sendable (EmulatorEvent) -> Void) {
        self.backend = backend
        self.teardownTimeout = teardownTimeout
        self.report = report
    }

    /// From now on carry `target`, replacing any target not yet applied.
    func post(_ target: Target) {
        mailbox.withLock { $0.target = target }
        wakeup.signal()
    }

    /// Ends the loop: the step under way finishes, then the teardown.
    func requestStop() {
        mailbox.withLock { $0.stop = true }
        wakeup.signal()
    }

    /// Ends the loop `runTime` after the beacons first went on air.
    func stop(after runTime: Duration) {
        mailbox.withLock { $0.runTime = runTime }
        wakeup.signal()
    }

    /// Ends the loop as failed: the step under way finishes, then the teardown is attempted.
    func fail(_ message: String) {
        mailbox.withLock { if $0.failure == nil { $0.failure = message } }
        wakeup.signal()
    }

    /// What ended the loop.
    enum Outcome: Sendable {
        /// Stopped on request.
        case stopped(Teardown)
        /// A controller error ended the run (then the teardown was attempted).
        case failed(message: String, teardown: Teardown)

        var teardown: Teardown {
            switch self {
            case .stopped(let t), .failed(_, let t): t
            }
        }
    }

    /// The loop: applies targets, runs the rotation on time, tears down at the end.
    func run() async -> Outcome {
        var loop = LoopState()
        var failure: String?
        while failure == nil {
            let (target, stop, fault, runTime) = mailbox.withLock { m in
                defer { m.target = nil }
                return (m.target, m.stop, m.failure, m.runTime)
            }
            let deadline = runTime.flatMap { t in loop.firstOnAir.map { $0 + t } }
            if let fault { failure = fault; break }
            if stop { break }
            if let target {
                failure = await apply(target, &loop)
                continue
            }
            // A turn due before the end runs even when the loop is late, so a run of N turns'
            // length carries out N turns however busy the machine is.
            if let due = loop.nextDue, ContinuousClock.now >= due, deadline.map({ due < $0 }) ?? true {
                failure = await rotate(&loop, due: due)
                continue
            }
            if let deadline, ContinuousClock.now >= deadline { break }
            let wake = [loop.nextDue, deadline].compactMap { $0 }.min()
            await wakeup.wait(until: wake)
        }
        let teardown = await tearDown(&loop)
        if let failure { return .failed(message: failure, teardown: teardown) }
        return .stopped(teardown)
    }

    /// What the loop knows between steps.
    private struct LoopState {
        var target: Target?
        /// What is on air, per advertiser.
        var onAir: AdvertisingState = [:]
        /// Beacons that may be on air although `onAir` does not say so: after a step failed
        /// half-way, the old and the new configuration of every advertiser it touched.
        var uncertain: Set<String> = []
        /// Whether anything was sent (a clean start, at least).
        var prepared = false
        var slotIndex = 0
        var cycleStart = ContinuousClock.now
        var nextDue: ContinuousClock.Instant?
        /// When the first target went on air.
        var firstOnAir: ContinuousClock.Instant?
        /// Why the last step failed.
        var failure: String?
    }

    private func apply(_ target: Target, _ loop: inout LoopState) async -> String? {
        let first = target.states.first ?? [:]
        do {
            try backend.validate(first)
            for state in target.states.dropFirst() { try backend.validate(state) }
        } catch {
            // Nothing was sent: what is on air stays, and the caller learns why.
            report(.updateFailed(generation: target.generation, adapter: adapter, message: "\(error)"))
            return nil
        }
        if !loop.prepared {
            loop.prepared = true
            do { try await backend.prepare() } catch { return "\(error)" }
        }
        if await move(&loop, to: first) == nil { return loop.failure }
        loop.target = target
        loop.slotIndex = 0
        loop.cycleStart = .now
        if loop.firstOnAir == nil { loop.firstOnAir = loop.cycleStart }
        loop.nextDue = target.rotates ? loop.cycleStart + target.slotDuration : nil
        report(.applied(generation: target.generation, adapter: adapter))
        return nil
    }

    /// The next turn of the rotation. Turns are scheduled from the cycle's start, so lateness
    /// does not add up.
    private func rotate(_ loop: inout LoopState, due: ContinuousClock.Instant) async -> String? {
        guard let target = loop.target else { loop.nextDue = nil; return nil }
        let lateness = ContinuousClock.now - due
        loop.slotIndex += 1
        let state = target.states[loop.slotIndex % target.states.count]
        guard let commands = await move(&loop, to: state) else { return loop.failure }
        report(.slot(adapter: adapter, index: loop.slotIndex, commands: commands, lateness: lateness))
        // Late turns are not skipped (each beacon keeps its turn); the next ones follow at once
        // until the rotation is back on its schedule.
        loop.nextDue = loop.cycleStart + target.slotDuration * (loop.slotIndex + 1)
        return nil
    }

    /// Sends the difference from what is on air to `state` and reports who came and went;
    /// returns how many commands it took, or nil with `loop.failure` set.
    private func move(_ loop: inout LoopState, to state: AdvertisingState) async -> Int? {
        let old = loop.onAir
        let result: Transition
        do {
            result = try await backend.transition(from: old, to: state)
        } catch {
            loop.failure = "\(error)"
            for handle in Set(old.keys).union(state.keys) where old[handle] != state[handle] {
                if let o = old[handle] { loop.uncertain.insert(o.beaconName) }
                if let n = state[handle] { loop.uncertain.insert(n.beaconName) }
            }
            return nil
        }
        loop.onAir = state
        // New data alone (an Eddystone TLM burst, a new measured power) keeps the beacon on air.
        func same(_ a: AdvertisingSetConfiguration?, _ b: AdvertisingSetConfiguration?) -> Bool {
            a?.beaconName == b?.beaconName && a?.address == b?.address && a?.parameters == b?.parameters
        }
        for (handle, config) in old.sorted(by: { $0.key < $1.key }) where !same(state[handle], config) {
            report(.offAir(beacon: config.beaconName, adapter: adapter, advertiser: handle))
        }
        for (handle, config) in state.sorted(by: { $0.key < $1.key }) where !same(old[handle], config) {
            report(.onAir(beacon: config.beaconName, adapter: adapter, advertiser: handle, address: config.address, selectedTxPower: result.selectedTxPower[handle]))
        }
        return result.commands
    }

    private func tearDown(_ loop: inout LoopState) async -> Teardown {
        let teardown: Teardown
        if !loop.prepared {
            teardown = .nothingSent
        } else {
            do {
                try await backend.teardown(timeout: teardownTimeout)
                teardown = .clean
            } catch {
                let names = Set(loop.onAir.values.map(\.beaconName)).union(loop.uncertain)
                teardown = .incomplete(mayBeOnAir: names.sorted(), reason: "\(error)")
            }
        }
        if teardown.isClean {
            for (handle, config) in loop.onAir.sorted(by: { $0.key < $1.key }) {
                report(.offAir(beacon: config.beaconName, adapter: adapter, advertiser: handle))
            }
        }
        loop.onAir = [:]
        report(.stopped(adapter: adapter, teardown: teardown))
        return teardown
    }
}
