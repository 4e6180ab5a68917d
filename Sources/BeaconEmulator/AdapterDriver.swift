// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconProfiles
import HCI
import HCITransport
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
        /// Each beacon's longest silence under the plan, the plan's command time and its goal:
        /// what the run's measured coverage is held against.
        var plannedGaps: [BeaconName: Duration] = [:]
        var plannedCommandTime: Duration = FleetPlanner.assumedCommandTime
        /// What the plan allows one turn's commands.
        var plannedCommands: Duration = .zero
        var plannedSilence: Duration = .zero
        var goal: Duration = .seconds(1)
        var rotates: Bool { states.count > 1 }
    }

    private struct Mailbox {
        var target: Target?
        var stop = false
        /// A fault found outside the loop (a Hardware Error event): the loop ends with it.
        var failure: TermedText?
        /// How long after its beacons first went on air to stop by itself: no turn due at or
        /// after then starts, so a run of N turns' length carries out exactly N turns.
        var runTime: Duration?
        /// What the watchdog noticed and no restore has dealt with yet.
        var loss: AdvertisingLoss?
    }

    let backend: any AdvertisingBackend
    var adapter: AdapterName { backend.adapter }
    private let mailbox = Mutex(Mailbox())
    private let wakeup = Wakeup()
    private let report: @Sendable (EmulatorEvent) -> Void
    /// How long each teardown exchange may take (nil: the controller session's command timeout).
    let teardownTimeout: Duration?
    /// Whether a watchdog looks after this adapter (the kernel drives it too): then a rotation
    /// turn refused because the adapter is away for a moment is a loss to restore, not the end.
    let watched: Bool

    /// Called when the controller answers the run's commands clearly slower (or faster) than the
    /// plan assumed: with the measured time, so the fleet can plan the turns again with it.
    private let slowCommands: @Sendable (AdapterName, Duration) -> Void

    init(backend: any AdvertisingBackend, teardownTimeout: Duration? = nil, watched: Bool = false,
         slowCommands: @escaping @Sendable (AdapterName, Duration) -> Void = { _, _ in },
         report: @escaping @Sendable (EmulatorEvent) -> Void) {
        self.backend = backend
        self.slowCommands = slowCommands
        self.teardownTimeout = teardownTimeout
        self.watched = watched
        self.report = report
        // A set that stopped by itself may end the turn: the loop looks at once.
        backend.onSelfStop { [wakeup] in wakeup.signal() }
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

    /// The watchdog noticed that something outside beacon took (or may have taken) our
    /// advertising off the air: the loop puts it back (see ``restore(_:)``).
    func lost(_ loss: AdvertisingLoss) {
        mailbox.withLock { $0.loss = $0.loss.map { $0.merged(with: loss) } ?? loss }
        wakeup.signal()
    }

    /// The run's commands are "clearly slower" than planned past this ratio, once this many
    /// turns are measured; after a re-plan the next may come this much later at the soonest.
    static let slowCommandRatio = 1.15
    /// … or faster than planned past this one (the plan had more than the 1 ms floor).
    static let fastCommandRatio = 1.3
    static let slowCommandTurns = 20
    static let replanEvery: Duration = .seconds(10)

    /// How often a rotation reports its measured coverage on the way (at least once a cycle).
    static let coverageEvery: Duration = .seconds(5)

    /// A restore the controller refused for another reason (busy) is tried again this often …
    static let restoreRetry: Duration = .milliseconds(250)
    /// … one the management API refused because the adapter is off or gone waits for the event
    /// that says it is back (New Settings powered, Index Added), which restores at once; this is
    /// only the backstop should that event never come …
    static let restoreBackstop: Duration = .seconds(1)
    /// … and a raw socket's write refused with ENETDOWN is tried again this often: the kernel
    /// sends a bound raw socket no event when the device is up again (its HCI Reset comes at the
    /// start of the power-on, before the device accepts writes), and a refused write costs
    /// nothing on the air, so a short poll puts the sets back within this of the device being up.
    static let downPoll: Duration = .milliseconds(50)
    /// … for this long, after which the run ends: the adapter is not coming back.
    static let restoreGiveUp: Duration = .seconds(30)

    /// Ends the loop as failed: the step under way finishes, then the teardown is attempted.
    func fail(_ message: TermedText) {
        mailbox.withLock { if $0.failure == nil { $0.failure = message } }
        wakeup.signal()
    }

    /// What ended the loop.
    enum Outcome: Sendable {
        /// Stopped on request.
        case stopped(Teardown)
        /// A controller error ended the run (then the teardown was attempted).
        case failed(message: TermedText, teardown: Teardown)

        var teardown: Teardown {
            switch self {
            case .stopped(let t), .failed(_, let t): t
            }
        }
    }

    /// The loop: applies targets, runs the rotation on time, tears down at the end.
    func run() async -> Outcome {
        var loop = LoopState()
        var failure: TermedText?
        while failure == nil {
            let (target, stop, fault, runTime, loss) = mailbox.withLock { m in
                defer { m.target = nil; m.loss = nil }
                return (m.target, m.stop, m.failure, m.runTime, m.loss)
            }
            if let loss, loop.prepared {
                if loop.loss == nil { loop.lossNoticed = .now }
                if loss.adapterBack { loop.adapterBack = .now }
                loop.loss = loop.loss.map { $0.merged(with: loss) } ?? loss
                loop.restoreDue = .now + loss.settle
            }
            let deadline = runTime.flatMap { t in loop.firstOnAir.map { $0 + t } }
            if let fault { failure = fault; break }
            if stop { break }
            if let target {
                failure = await apply(target, &loop)
                continue
            }
            // A controller that stops a set after its events (LE Advertising Set Terminated)
            // counts the events of every turn from now on.
            let stopped = loop.stoppedSets(backend.selfStops)
            if !loop.controllerTimed, !stopped.isEmpty {
                loop.controllerTimed = true
                report(.turnTiming(adapter: adapter, byController: true))
            }
            // A turn due before the end runs even when the loop is late, so a run of N turns'
            // length carries out N turns however busy the machine is. When the controller counts
            // the events, the turn also waits for every set to have had its events (so each gets
            // exactly its share), up to a backstop.
            var wakeForBackstop: ContinuousClock.Instant?
            if let due = loop.nextDue, ContinuousClock.now >= due, deadline.map({ due < $0 }) ?? true {
                let waitingForStops = loop.controllerTimed && stopped.count < loop.limited.count
                let backstop = loop.backstop(due: due)
                if !waitingForStops || ContinuousClock.now >= backstop {
                    if waitingForStops {
                        // A set did not stop in time (the controller ignored its limit, or its
                        // event was lost): the host times the turns from now on.
                        loop.controllerTimed = false
                        report(.turnTiming(adapter: adapter, byController: false))
                    }
                    failure = await rotate(&loop, due: due, stopped: stopped)
                    continue
                }
                wakeForBackstop = backstop
            }
            // A turn already due waits for its stops (or its backstop) even past the end.
            if let backstop = wakeForBackstop {
                await wakeup.wait(until: backstop)
                continue
            }
            if let due = loop.restoreDue, ContinuousClock.now >= due {
                failure = await restore(&loop)
                continue
            }
            if let deadline, ContinuousClock.now >= deadline { break }
            let wake = [loop.nextDue, deadline, loop.restoreDue].compactMap { $0 }.min()
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
        var uncertain: Set<BeaconName> = []
        /// Whether anything was sent (a clean start, at least).
        var prepared = false
        var slotIndex = 0
        var cycleStart = ContinuousClock.now
        var nextDue: ContinuousClock.Instant?
        /// When the first target went on air.
        var firstOnAir: ContinuousClock.Instant?
        /// Why the last step failed.
        var failure: TermedText?
        var failureError: (any Error)?
        /// What the watchdog noticed, not yet restored; while set, turns of a rotation only
        /// move `onAir` (the restore puts the current turn on air).
        var loss: AdvertisingLoss?
        var lossNoticed: ContinuousClock.Instant?
        /// When the adapter last became usable again during this loss (powered on, back).
        var adapterBack: ContinuousClock.Instant?
        var restoreDue: ContinuousClock.Instant?
        /// Whether the controller counts each turn's events: it has stopped a set after its
        /// events, so a turn ends only once every set of it has stopped (or at the backstop).
        var controllerTimed = false
        /// The sets of this turn the controller stops after their events, and its count of
        /// stops for each just before they were enabled.
        var limited: [UInt8: Int] = [:]
        /// When the last set of this turn will have had its last event at the latest: its events'
        /// intervals, each with the link layer's advDelay (up to 10 ms, Core Vol 6 Part B
        /// §4.4.2.2.1), counted from when the enable was answered.
        var lastEventBy: ContinuousClock.Instant?
        /// Every beacon's silences as measured (see CoverageMeter), and whether a miss of the plan
        /// has been reported yet (once per run).
        var meter = CoverageMeter()
        var missReported = false
        var nextCoverage = ContinuousClock.now + AdapterDriver.coverageEvery
        /// When the turns were last planned again for the measured command time.
        var replanned: ContinuousClock.Instant?
        var replans = 0
        /// The first rotating target's command time (before any re-plan).
        var firstPlannedCommandTime: Duration?

        /// How long a turn due at `due` may wait for its sets to stop: until their last events
        /// are certainly over, then as long again as a turn and 200 ms more for the stop events
        /// to come through a busy host (a false alarm only costs one disable).
        func backstop(due: ContinuousClock.Instant) -> ContinuousClock.Instant {
            max(due, lastEventBy ?? due) + (target?.slotDuration ?? .zero) + .milliseconds(200)
        }

        /// The limited sets the controller has stopped since they were enabled for this turn.
        func stoppedSets(_ stops: [UInt8: Int]) -> Set<UInt8> {
            Set(limited.filter { handle, before in stops[handle, default: 0] > before }.keys)
        }
    }

    private func apply(_ target: Target, _ loop: inout LoopState) async -> TermedText? {
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
        loop.meter.plan(target.plannedGaps)
        // A target with the same rotation (new data for a TLM burst, turns planned again for the
        // measured command time) goes on where the rotation is: restarting it at the first turn
        // would keep the beacons of the later turns off air for up to a cycle more.
        let keepsPlace = loop.target.map { Self.sameRotation($0.states, target.states) } ?? false
        let slot = keepsPlace ? loop.slotIndex : 0
        // The current turn keeps its start: it ends a (new) turn's length after it began.
        var turnStart: ContinuousClock.Instant?
        if keepsPlace, let due = loop.nextDue, let old = loop.target { turnStart = due - old.slotDuration }
        if await move(&loop, to: target.states[slot % target.states.count], stopped: loop.stoppedSets(backend.selfStops)) == nil { return loop.failure }
        loop.target = target
        if target.rotates, loop.firstPlannedCommandTime == nil { loop.firstPlannedCommandTime = target.plannedCommandTime }
        loop.slotIndex = slot
        let now = ContinuousClock.now
        let start = turnStart ?? now
        loop.cycleStart = start - target.slotDuration * slot
        if loop.firstOnAir == nil { loop.firstOnAir = now }
        loop.nextDue = target.rotates ? start + target.slotDuration : nil
        report(.applied(generation: target.generation, adapter: adapter))
        return nil
    }

    /// Whether two rotations put the same beacons on the same advertisers turn for turn.
    static func sameRotation(_ a: [AdvertisingState], _ b: [AdvertisingState]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in x.count == y.count && x.allSatisfy { y[$0.key]?.beaconName == $0.value.beaconName } }
    }

    /// The next turn of the rotation. Turns are scheduled from the cycle's start, so lateness
    /// does not add up, and a turn a whole turn late re-times the schedule, so it stays below a turn.
    private func rotate(_ loop: inout LoopState, due: ContinuousClock.Instant, stopped: Set<UInt8>) async -> TermedText? {
        guard let target = loop.target else { loop.nextDue = nil; return nil }
        let started = ContinuousClock.now
        let lateness = started - due
        loop.slotIndex += 1
        let state = target.states[loop.slotIndex % target.states.count]
        if loop.loss != nil {
            loop.onAir = state
            loop.nextDue = loop.cycleStart + target.slotDuration * (loop.slotIndex + 1)
            return nil
        }
        guard let commands = await move(&loop, to: state, stopped: stopped, lateness: lateness) else {
            guard watched, let away = Self.adapterAway(loop.failureError) else { return loop.failure }
            // Powered off or gone for a moment: the turn goes on air when the restore does.
            loop.failure = nil
            loop.onAir = state
            loop.loss = AdvertisingLoss(reason: away, cleared: false)
            loop.lossNoticed = .now
            loop.restoreDue = .now + Self.restoreRetry
            loop.nextDue = loop.cycleStart + target.slotDuration * (loop.slotIndex + 1)
            return nil
        }
        report(.slot(adapter: adapter, index: loop.slotIndex, commands: commands, lateness: lateness))
        // Commands clearly slower than the plan's (a controller slower under load than at the
        // probe, writes slower than its read-outs), or clearly faster (a probe on a busy host):
        // the fleet plans the turns again with them.
        let planned = target.plannedCommandTime
        if let measured = loop.meter.commandTime, loop.meter.commandSamples >= Self.slowCommandTurns,
           measured > planned * Self.slowCommandRatio
            || (planned > FleetPlanner.assumedCommandTime && measured * Self.fastCommandRatio < planned),
           loop.replanned.map({ started - $0 >= Self.replanEvery }) ?? true {
            loop.replanned = started
            loop.replans += 1
            slowCommands(adapter, measured)
        }
        // The measured coverage on the way: every few seconds (for the live view and --json),
        // and at once when a beacon first misses the plan (what a log shows, once).
        let firstMiss = loop.meter.missesPlan && !loop.missReported
        if firstMiss || started >= loop.nextCoverage {
            loop.missReported = loop.missReported || firstMiss
            var r = coverage(loop, final: false)
            r.firstMiss = firstMiss
            report(.coverage(adapter: adapter, r))
            loop.nextCoverage = started + max(Self.coverageEvery, target.slotDuration * target.states.count)
        }
        // A turn late by less than a turn keeps the schedule: the next turn is due on time, so
        // this one is shortened, and lateness never adds up. Later than that (a stalled host, a
        // controller slower than the plan's model), the rotation is re-timed from this turn's
        // start: the turns still due would otherwise follow at once, with an event each, and the
        // beacons behind would stay behind. No beacon loses its turn either way.
        if lateness >= target.slotDuration {
            loop.cycleStart = started - target.slotDuration * loop.slotIndex
        }
        loop.nextDue = loop.cycleStart + target.slotDuration * (loop.slotIndex + 1)
        return nil
    }

    /// Sends the difference from what is on air to `state` and reports who came and went;
    /// returns how many commands it took, or nil with `loop.failure` set.
    private func move(_ loop: inout LoopState, to state: AdvertisingState, stopped: Set<UInt8>, lateness: Duration? = nil) async -> Int? {
        let old = loop.onAir
        let result: Transition
        loop.limited = [:]
        let start = ContinuousClock.now
        do {
            result = try await backend.transition(from: old, to: state, stopped: stopped)
        } catch {
            loop.failure = "\(error)"
            loop.failureError = error
            for handle in Set(old.keys).union(state.keys) where old[handle] != state[handle] {
                if let o = old[handle] { loop.uncertain.insert(o.beaconName) }
                if let n = state[handle] { loop.uncertain.insert(n.beaconName) }
            }
            return nil
        }
        loop.onAir = state
        if backend.controllerTimesTurns, let before = result.selfStopsAtEnable {
            var longest = Duration.zero
            for (handle, config) in state where config.eventsPerTurn > 0 {
                loop.limited[handle] = before[handle, default: 0]
                let events = Int(config.eventsPerTurn)
                longest = max(longest, config.interval.duration * (events - 1) + AdvertisingInterval.maximumAdvertisingDelay * events)
            }
            loop.lastEventBy = .now + longest
        }
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
        let left = old.filter { !same(state[$0.key], $0.value) }.map(\.value.beaconName)
        let came = state.filter { !same(old[$0.key], $0.value) }.map { _, config in
            (beacon: config.beaconName, interval: config.interval, limit: backend.controllerTimesTurns ? Int(config.eventsPerTurn) : 0)
        }
        let selfStopped = Set(old.filter { stopped.contains($0.key) && !same(state[$0.key], $0.value) }.map(\.value.beaconName))
        loop.meter.turn(start: start, answered: .now, commands: result.commands, lateness: lateness ?? .zero, left: left, came: came,
                        rotation: lateness != nil, stoppedByController: selfStopped)
        return result.commands
    }

    /// Puts back what the watchdog's loss took; reports the recovery, or tries again later, or
    /// after ``restoreGiveUp`` ends the run.
    private func restore(_ loop: inout LoopState) async -> TermedText? {
        guard let loss = loop.loss, let noticed = loop.lossNoticed else { loop.restoreDue = nil; return nil }
        do {
            let restored = try await backend.restore(loop.onAir, after: loss)
            let back = loop.adapterBack
            loop.loss = nil
            loop.lossNoticed = nil
            loop.adapterBack = nil
            loop.restoreDue = nil
            if !restored.isEmpty {
                let beacons = restored.compactMap { loop.onAir[$0]?.beaconName }
                let now = ContinuousClock.now
                // Off air from the loss (noticed then) to now: a silence the coverage counts.
                let came = restored.compactMap { h in loop.onAir[h].map { (beacon: $0.beaconName, interval: $0.interval, limit: 0) } }
                loop.meter.turn(start: noticed, answered: now, commands: 0, lateness: .zero, left: loop.meter.onAir, came: came)
                report(.recovered(adapter: adapter, reason: loss.reason, beacons: beacons, after: now - noticed, afterAdapterBack: back.map { now - $0 }))
            }
            return nil
        } catch {
            if ContinuousClock.now - noticed >= Self.restoreGiveUp {
                return "\(adapter): advertising was taken off the air (\(loss.reason)) and could not be restored for \(Self.restoreGiveUp): \(error)"
            }
            loop.restoreDue = .now + Self.retryDelay(after: error)
            return nil
        }
    }

    /// When to try a refused restore again (see ``restoreRetry``).
    static func retryDelay(after error: any Error) -> Duration {
        switch error as? AdapterError {
        case .hci(.transport(.system(let call, _)))? where call.errno == .networkDown:
            return downPoll
        case .management(let e)? where e.status == .invalidIndex || e.status == .notPowered:
            return restoreBackstop
        default:
            return restoreRetry
        }
    }

    /// Why `error` means the adapter is away for now (powered off: the raw socket refuses writes
    /// with ENETDOWN; gone: the management API answers Invalid Index), or nil.
    static func adapterAway(_ error: (any Error)?) -> TermedText? {
        switch error as? AdapterError {
        case .hci(.transport(.system(let call, _)))? where call.errno == .networkDown:
            return "the adapter is down (\(call))"
        case .management(let e)? where e.status == .invalidIndex || e.status == .notPowered:
            return "the adapter is away (\(e))"
        default:
            return nil
        }
    }

    /// The run's coverage as measured so far (see ``CoverageMeter``).
    private func coverage(_ loop: LoopState, final: Bool) -> CoverageReport {
        let target = loop.target
        var r = CoverageReport(beacons: loop.meter.beacons, latestTurn: loop.meter.latestTurn, commandTime: loop.meter.commandTime,
                               plannedCommandTime: target?.plannedCommandTime ?? FleetPlanner.assumedCommandTime,
                               plannedSilence: target?.plannedSilence ?? .zero, goal: target?.goal ?? .seconds(1), final: final)
        r.firstPlannedCommandTime = loop.firstPlannedCommandTime
        r.replans = loop.replans
        r.slowestCommands = loop.meter.slowestCommands
        r.plannedCommands = target?.plannedCommands ?? .zero
        return r
    }

    private func tearDown(_ loop: inout LoopState) async -> Teardown {
        // What the rotation's beacons got, before the teardown's off-air events.
        if loop.target?.rotates == true, loop.meter.beacons.contains(where: { $0.turns > 1 }) {
            report(.coverage(adapter: adapter, coverage(loop, final: true)))
        }
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
