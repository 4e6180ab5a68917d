// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconProfiles
import HCI
import HCITransport
import Synchronization

/// A fleet of beacons on air on one or more open controllers, owned from start to teardown.
///
/// ```swift
/// let fleet = RunningFleet(connections: open, planner: FleetPlanner())
/// let plan = try await fleet.start(beacons)      // probe, plan, validate, on air
/// fleet.update(changedBeacons)                    // at any time, at any rate
/// let outcome = await fleet.stop()                // teardown; what may still be on air
/// ```
///
/// Each controller has one `AdapterDriver`, a serial loop that alone sends it commands
/// (through an ``AdvertisingBackend``). ``update(_:)`` plans the new beacons on the controllers
/// as probed (beacons that stay keep their advertisers, see ``FleetPlanner/plan(_:on:keeping:)``) and posts each driver its share: updates coalesce (the last one always wins, only
/// the difference from what is on air is sent), and each is either applied or reported failed
/// (``EmulatorEvent/applied(generation:adapter:)``, ``EmulatorEvent/updateFailed(generation:adapter:message:)``);
/// none is lost. A controller error on any adapter stops the whole fleet, with a teardown
/// everywhere; ``outcome()`` says what ended it and what may still be on air.
public final class RunningFleet: Sendable {
    public let connections: [AdapterConnection]
    public let planner: FleetPlanner
    /// How long each teardown exchange may take (nil: each connection's command timeout).
    public let teardownTimeout: Duration?
    /// Every event, in order; finishes when the fleet has stopped.
    public let events: AsyncStream<EmulatorEvent>

    private let sink: AsyncStream<EmulatorEvent>.Continuation
    private let observer: @Sendable (EmulatorEvent) -> Void
    private let state = Mutex(State())
    /// Eddystone TLM bursts: what is on air changes on its own between updates.
    private let telemetry = TelemetryClock()

    private struct State {
        var capabilities: [ControllerCapabilities] = []
        var drivers: [AdapterDriver] = []
        var supervisor: Task<FleetOutcome, Never>?
        var watchers: [Task<Void, Never>] = []
        var generation = 0
        var stopRequested = false
        var ended = false
        /// Beacons an update asked for before the fleet started.
        var pending: [BeaconProfile]?
        /// The generation of the last ``start(_:)`` or ``update(_:)`` (not of a TLM burst).
        var requestGeneration = 1
        var plan: FleetPlan?
        /// What ``plan(_:)`` last planned, so the start that follows does not plan it again.
        var planned: PlannedBeacons?
        /// Per adapter: the newest generation it settled, and whether that settling was a failure.
        var settled: [AdapterName: (generation: Int, failed: TermedText?)] = [:]
        var waiters: [(generation: Int, continuation: CheckedContinuation<UpdateOutcome, Never>)] = []
    }

    /// - Parameters:
    ///   - connections: the open adapters the fleet runs on (it does not close them).
    ///   - planner: how beacons are placed on the controllers.
    ///   - capabilities: the controllers as already probed (or assumed), in the order of
    ///     `connections`; nil: ``probe()`` asks them.
    ///   - report: called synchronously with every event, in order, before it reaches
    ///     ``events`` (for a live view that must never lag).
    ///   - teardownTimeout: how long each teardown exchange may take (nil: each connection's
    ///     command timeout).
    public init(connections: [AdapterConnection], planner: FleetPlanner = FleetPlanner(), capabilities: [ControllerCapabilities]? = nil,
                teardownTimeout: Duration? = nil, report: @escaping @Sendable (EmulatorEvent) -> Void = { _ in }) {
        self.connections = connections
        self.planner = planner
        self.teardownTimeout = teardownTimeout
        self.observer = report
        (events, sink) = AsyncStream.makeStream(of: EmulatorEvent.self, bufferingPolicy: .bufferingNewest(65_536))
        if let capabilities { state.withLock { $0.capabilities = capabilities } }
    }

    // MARK: - Probe and plan

    /// Probes every controller (resetting the ones we own); nothing goes on air. A second call
    /// returns what the first found: a probe may reset a controller, which would take beacons off air.
    @discardableResult
    public func probe() async throws(AdapterError) -> [ControllerCapabilities] {
        let known = state.withLock { $0.capabilities }
        if !known.isEmpty { return known }
        var capabilities: [ControllerCapabilities] = []
        for c in connections {
            var caps: ControllerCapabilities
            switch c.session {
            case .management(let mgmt):
                do throws(MgmtControllerError) { caps = try await ControllerProbe.probe(management: mgmt) } catch { throw .management(error) }
                caps = await ControllerProbe.measureUsableInstances(mgmt, caps)
            case .hci(let hci):
                do throws(HCIControllerError) { caps = try await ControllerProbe.probe(hci, reset: c.mayReset) } catch { throw .hci(error) }
            }
            caps.backendReason = c.backendReason
            // Only a controller we own: the trial's reset is ours to send.
            if case .hci(let hci) = c.session, c.mayReset {
                do throws(HCIControllerError) { caps = try await ControllerProbe.tryExtendedAdvertising(hci, caps) } catch { throw .hci(error) }
            }
            capabilities.append(caps)
        }
        state.withLock { $0.capabilities = capabilities }
        return capabilities
    }

    /// Probes (once) and plans `beacons`; nothing goes on air. A ``start(_:)`` of the same
    /// beacons that follows carries out this plan (it does not plan them again).
    public func plan(_ beacons: [BeaconProfile]) async throws(AdapterError) -> FleetPlan {
        let plan = planner.plan(beacons, on: try await probe())
        state.withLock { $0.planned = PlannedBeacons(beacons: beacons, plan: plan) }
        return plan
    }

    /// A plan and the beacons it was made for.
    private struct PlannedBeacons {
        var beacons: [BeaconProfile]
        var plan: FleetPlan
    }

    /// The generation of the last ``start(_:)`` or ``update(_:)`` call: later generations that
    /// only carry Eddystone TLM bursts (same plan, new data) do not change it.
    public var requestGeneration: Int { state.withLock { $0.requestGeneration } }

    /// The plan now being carried out (the latest update's).
    public var currentPlan: FleetPlan? { state.withLock { $0.plan } }

    // MARK: - Start, update, stop

    /// Probes (once), plans and checks every command against the controllers, then puts the
    /// beacons on air; returns the plan once every adapter has its share on air, or the fleet
    /// has stopped (see ``outcome()``). Throws only when nothing was sent: a probe that failed,
    /// or a plan a controller would refuse.
    @discardableResult
    public func start(_ requested: [BeaconProfile]) async throws(AdapterError) -> FleetPlan {
        let beacons = telemetry.request(requested)
        let capabilities = try await probe()
        let planned = state.withLock { $0.planned }
        let plan = planned.flatMap { $0.beacons == beacons ? $0.plan : nil } ?? planner.plan(beacons, on: capabilities)
        // A stop asked for while a large fleet was being planned (seconds): nothing was sent.
        if isStopRequested {
            finish()
            return plan
        }
        let drivers = connections.map { connection in
            let caps = capabilities.first { $0.adapter == connection.adapterName }!
            let backend: any AdvertisingBackend
            switch connection.session {
            case .management(let mgmt):
                backend = MgmtAdvertisingBackend(mgmt: mgmt, capabilities: caps)
            case .hci(let hci):
                // Controller-timed turns need the event masks set, which only a controller we own allows.
                backend = planner.usesExtendedSets(caps)
                    ? HCIAdvertisingBackend.extendedSets(hci, caps, controllerTimedTurns: connection.mayReset)
                    : HCIAdvertisingBackend.legacy(hci, caps)
            }
            let watched = connection.management != nil || connection.sharedWithKernel
            return AdapterDriver(backend: backend, teardownTimeout: teardownTimeout, watched: watched,
                                 slowCommands: { [weak self] adapter, measured in self?.replan(adapter, commandTime: measured) },
                                 report: { [weak self] event in self?.emit(event) })
        }
        let targets = Self.targets(plan, drivers: drivers, generation: 1)
        // Every command of the first plan is checked before the first byte goes on the air. A
        // large fleet's checks take seconds: a stop asked for meanwhile ends them (nothing was
        // sent, and the start below sees the stop).
        checks: for (driver, target) in zip(drivers, targets) {
            for s in target.states {
                if isStopRequested { break checks }
                try driver.backend.validate(s)
            }
        }
        let started: Bool = state.withLock { s in
            guard !s.stopRequested, s.supervisor == nil else { return false }
            s.generation = 1
            s.plan = plan
            s.drivers = drivers
            s.supervisor = Task { await Self.supervise(drivers) }
            for (driver, target) in zip(drivers, targets) { driver.post(target) }
            return true
        }
        guard started else {
            finish()  // stopped before anything was sent
            return plan
        }
        watchHardwareErrors(drivers)
        startTelemetryIfNeeded()
        let pending = state.withLock { s in defer { s.pending = nil }; return s.pending }
        let generation = pending.map { update($0) } ?? 1
        _ = await settled(generation)
        return state.withLock { $0.plan } ?? plan
    }

    /// Carry `beacons` from now on: planned on the controllers as probed (no new probe) and
    /// posted to every adapter; returns the update's generation at once. Before ``start(_:)``
    /// has put anything on air, the beacons are kept and applied once it has. After a stop, ignored.
    @discardableResult
    public func update(_ beacons: [BeaconProfile]) -> Int {
        let generation = apply(telemetry.request(beacons), requested: true)
        if state.withLock({ !$0.drivers.isEmpty }) { startTelemetryIfNeeded() }
        return generation
    }

    private func startTelemetryIfNeeded() {
        guard telemetry.isNeeded else { return telemetry.stop() }
        telemetry.start { [weak self] frames in _ = self?.apply(frames) }
    }

    /// Plans `beacons` (the frames to put on air now) and posts them; see ``update(_:)``.
    /// `requested`: an ``update(_:)``, not a TLM burst; its generation is recorded before any
    /// adapter can report it applied.
    private func apply(_ beacons: [BeaconProfile], requested: Bool = false) -> Int {
        state.withLock { s in
            s.generation += 1
            if requested { s.requestGeneration = s.generation }
            guard !s.drivers.isEmpty, !s.stopRequested else {
                if !s.stopRequested { s.pending = beacons }
                return s.generation
            }
            // Beacons that stay keep their advertisers: only what changes is restarted.
            let plan = planner.plan(beacons, on: s.capabilities, keeping: s.plan)
            s.plan = plan
            for (driver, target) in zip(s.drivers, Self.targets(plan, drivers: s.drivers, generation: s.generation)) {
                driver.post(target)
            }
            return s.generation
        }
    }

    /// The run's commands on `adapter` take `measured` each, clearly more (or less) than its plan assumed:
    /// the same beacons are planned again with that time and a tenth more (so that the median's
    /// drift under load does not ask again at once), on the same advertisers and turns, and the
    /// adapter's rotation goes on where it is with the new turns (``EmulatorEvent/replanned``).
    func replan(_ adapter: AdapterName, commandTime measured: Duration) {
        let event: EmulatorEvent? = state.withLock { s in
            guard planner.commandTime == nil, !s.drivers.isEmpty, !s.stopRequested, let current = s.plan,
                  let k = s.capabilities.firstIndex(where: { $0.adapter == adapter }) else { return nil }
            s.capabilities[k].commandTime = measured * 1.1
            let plan = planner.plan(current.placements.map(\.beacon), on: s.capabilities, keeping: current)
            s.generation += 1
            s.plan = plan
            for (driver, target) in zip(s.drivers, Self.targets(plan, drivers: s.drivers, generation: s.generation)) {
                driver.post(target)
            }
            let turn = plan.adapters.first { $0.capabilities.adapter == adapter }?.slotDuration ?? .zero
            return .replanned(adapter: adapter, commandTime: measured, slotDuration: turn, longestSilence: plan.longestSilence, goal: plan.maximumSilence)
        }
        if let event { emit(event) }
    }

    /// How an update ended.
    public enum UpdateOutcome: Sendable, Equatable {
        /// On air on every adapter (perhaps as part of a later update that replaced it).
        case applied
        /// Refused by at least one adapter (the message says why); the old beacons stay there.
        case failed(TermedText)
        /// The fleet stopped first.
        case ended
    }

    /// Waits until update `generation` (or a later one that replaced it) is settled everywhere.
    public func settled(_ generation: Int) async -> UpdateOutcome {
        await withCheckedContinuation { (c: CheckedContinuation<UpdateOutcome, Never>) in
            let now: UpdateOutcome? = state.withLock { s in
                if let o = Self.outcome(of: generation, in: s) { return o }
                s.waiters.append((generation, c))
                return nil
            }
            if let now { c.resume(returning: now) }
        }
    }

    /// Whether a stop was asked for: long work before the start (a scenario's preflight) checks
    /// it, so a stop signal is honoured at once whatever the run is doing.
    public var isStopRequested: Bool { state.withLock { $0.stopRequested } }

    /// Asks the fleet to stop (safe from a signal handler's queue); ``outcome()`` waits for it.
    public func requestStop() {
        let drivers: [AdapterDriver] = state.withLock { s in
            s.stopRequested = true
            return s.drivers
        }
        for d in drivers { d.requestStop() }
    }

    /// Stops every adapter (advertising off, our sets removed) and says how that went.
    public func stop() async -> FleetOutcome {
        requestStop()
        return await outcome()
    }

    /// Waits until the fleet has stopped (on request, or because a controller failed).
    public func outcome() async -> FleetOutcome {
        guard let supervisor = state.withLock({ $0.supervisor }) else { return FleetOutcome(failure: nil, teardowns: []) }
        return await supervisor.value
    }

    /// Runs until `duration` has passed since the beacons went on air (nil: until
    /// ``requestStop()``) or a failure, then stops. Each adapter counts from its own start, and
    /// no turn due at or after the end starts: `duration` = N turns carries out N turns.
    public func run(for duration: Duration?) async -> FleetOutcome {
        if let duration {
            for d in state.withLock({ $0.drivers }) { d.stop(after: duration) }
        }
        return await outcome()
    }

    /// Starts `beacons`, keeps them on air for `duration` (unless a failure ends the run first),
    /// then stops; throws unless the run ended cleanly. For scripts and tests.
    @discardableResult
    public func advertise(_ beacons: [BeaconProfile], for duration: Duration) async throws(FleetError) -> FleetPlan {
        let plan: FleetPlan
        do throws(AdapterError) { plan = try await start(beacons) } catch { throw .notStarted(error) }
        let outcome = await run(for: duration)
        if !outcome.isClean { throw .ended(outcome) }
        return plan
    }

    // MARK: - Internals

    /// Each driver's share of `plan`: the states of its rotation, nothing for an adapter the plan
    /// leaves without beacons.
    static func targets(_ plan: FleetPlan, drivers: [AdapterDriver], generation: Int) -> [AdapterDriver.Target] {
        drivers.map { driver in
            guard let share = plan.adapters.first(where: { $0.capabilities.adapter == driver.adapter }) else {
                return AdapterDriver.Target(generation: generation, states: [[:]], slotDuration: .seconds(1))
            }
            let placements = FleetPlan(adapters: [share], warnings: [], maximumSilence: plan.maximumSilence).placements
            var gaps: [BeaconName: Duration] = [:]
            for p in placements { gaps[p.beacon.beaconName] = p.longestGap }
            return AdapterDriver.Target(generation: generation, states: AdvertisingProgram.states(of: share), slotDuration: share.slotDuration,
                                        plannedGaps: gaps, plannedCommandTime: share.turnTiming.commandTime,
                                        plannedCommands: share.turnTiming.commandsTime + TurnTiming.hostSlack,
                                        plannedSilence: placements.map(\.longestGap).max() ?? .zero, goal: plan.maximumSilence)
        }
    }

    /// Runs every driver; the first failure stops the others.
    private static func supervise(_ drivers: [AdapterDriver]) async -> FleetOutcome {
        await withTaskGroup(of: (AdapterName, AdapterDriver.Outcome).self) { group in
            for d in drivers { group.addTask { (d.adapter, await d.run()) } }
            var failure: TermedText?
            var teardowns: [AdapterTeardown] = []
            for await (adapter, outcome) in group {
                if case .failed(let message, _) = outcome, failure == nil {
                    failure = message
                    for d in drivers { d.requestStop() }
                }
                teardowns.append(AdapterTeardown(adapter: adapter, teardown: outcome.teardown))
            }
            let order = drivers.map(\.adapter)
            teardowns.sort { order.firstIndex(of: $0.adapter)! < order.firstIndex(of: $1.adapter)! }
            return FleetOutcome(failure: failure, teardowns: teardowns)
        }
    }

    /// A Hardware Error event means the controller hit a fault and may have reset itself: what it
    /// has on air is unknown, so the fleet stops and says so. On a controller the kernel drives
    /// too, the watchdog also passes on what takes our advertising off the air (the kernel's
    /// commands on the raw socket, the management API's events) for the driver to restore.
    private func watchHardwareErrors(_ drivers: [AdapterDriver]) {
        let watchers = zip(connections, drivers).compactMap { connection, driver -> Task<Void, Never>? in
            if let mgmt = connection.management, let backend = driver.backend as? MgmtAdvertisingBackend {
                // The management API reports no hardware errors to its users (the kernel handles them).
                return Task {
                    for await event in mgmt.events {
                        if let loss = backend.loss(from: event) { driver.lost(loss) }
                    }
                }
            }
            guard let hci = connection.hci else { return nil }
            let watchesKernel = connection.sharedWithKernel
            return Task { [weak self] in
                for await event in hci.events {
                    if watchesKernel, let loss = HCIAdvertisingBackend.loss(from: event) {
                        driver.lost(loss)
                        continue
                    }
                    guard case .hardwareError(let e) = event else { continue }
                    let message: TermedText = "\(driver.adapter): the controller reported a Hardware Error (code 0x\(Hex.string([e.hardwareCode]))): it hit a fault and may have reset itself, so what it has on air is unknown; unplug and replug it, or reset it with \(FrontEndTerm.stopWithReset)"
                    self?.emit(.error(adapter: driver.adapter, message: message))
                    driver.fail(message)
                    return
                }
            }
        }
        state.withLock { $0.watchers = watchers }
        Task { [weak self] in
            guard let self else { return }
            _ = await self.outcome()
            for w in self.state.withLock({ $0.watchers }) { w.cancel() }
            self.finish()
        }
    }

    private func finish() {
        telemetry.stop()
        let waiters = state.withLock { s in
            s.ended = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for w in waiters { w.continuation.resume(returning: .ended) }
        sink.finish()
    }

    private func emit(_ event: EmulatorEvent) {
        var ready: [(CheckedContinuation<UpdateOutcome, Never>, UpdateOutcome)] = []
        switch event {
        case let .applied(generation, adapter), let .updateFailed(generation, adapter, _):
            var failed: TermedText? = nil
            if case let .updateFailed(_, _, message) = event { failed = "\(adapter): \(message)" }
            state.withLock { s in
                s.settled[adapter] = (generation, failed)
                var waiting: [(generation: Int, continuation: CheckedContinuation<UpdateOutcome, Never>)] = []
                for w in s.waiters {
                    if let o = Self.outcome(of: w.generation, in: s) { ready.append((w.continuation, o)) } else { waiting.append(w) }
                }
                s.waiters = waiting
            }
        default: break
        }
        observer(event)
        sink.yield(event)
        for (c, o) in ready { c.resume(returning: o) }
    }

    /// Whether `generation` is settled on every adapter, and how.
    private static func outcome(of generation: Int, in s: State) -> UpdateOutcome? {
        if s.ended { return .ended }
        guard !s.drivers.isEmpty else { return nil }
        var failure: TermedText?
        for d in s.drivers {
            guard let settled = s.settled[d.adapter], settled.generation >= generation else { return nil }
            if let f = settled.failed, failure == nil { failure = f }
        }
        return failure.map(UpdateOutcome.failed) ?? .applied
    }
}

/// How a fleet's run ended; its ``termedText`` says it for a front end to present (what failed,
/// and on which adapter what may still be on air), its ``description`` in words.
public struct FleetOutcome: Sendable, CustomStringConvertible, TermedTextConvertible {
    /// The controller error that ended the run, if one did (its advice's terms for the front end
    /// to name).
    public var failure: TermedText?
    /// Each adapter's teardown, in the order the adapters were given.
    public var teardowns: [AdapterTeardown]

    public init(failure: TermedText?, teardowns: [AdapterTeardown]) {
        self.failure = failure
        self.teardowns = teardowns
    }

    /// No failure, and nothing of ours left on air.
    public var isClean: Bool { failure == nil && teardowns.allSatisfy { $0.teardown.isClean } }

    /// Per adapter whose teardown failed: the beacons that may still be on air, and why.
    public var leftOnAir: [LeftOnAir] {
        teardowns.compactMap { t in
            if case let .incomplete(names, reason) = t.teardown { return LeftOnAir(adapter: t.adapter, beacons: names, reason: reason) }
            return nil
        }
    }

    /// `the run ended cleanly`, or the failure and, per adapter whose teardown failed, what may
    /// still be on air and how to take it off (a stop on that adapter, as a `FrontEndTerm`).
    public var termedText: TermedText {
        if isClean { return "the run ended cleanly: nothing of ours is on air" }
        var text = failure ?? "the teardown failed"
        for l in leftOnAir {
            text.append(". The teardown on \(l.adapter) failed, so \(l.what) may still be on air: run \(FrontEndTerm.stopOn(adapter: l.adapter.text)), or unplug the adapter")
        }
        return text
    }

    /// ``termedText`` in words.
    public var description: String { termedText.description }
}

/// How one adapter's teardown went.
public struct AdapterTeardown: Sendable, Equatable {
    /// The adapter, as named by its connection (`AdapterConnection.adapterName`).
    public var adapter: AdapterName
    /// What its teardown left.
    public var teardown: Teardown

    public init(adapter: AdapterName, teardown: Teardown) {
        self.adapter = adapter
        self.teardown = teardown
    }
}

/// What may still be on air on one adapter after its teardown failed.
public struct LeftOnAir: Sendable, Equatable, CustomStringConvertible, TermedTextConvertible {
    /// The adapter, as named by its connection.
    public var adapter: AdapterName
    /// The beacons that may still be on air (empty: its advertising, whatever it was).
    public var beacons: [BeaconName]
    /// Why the teardown failed (its advice's terms for the front end to name).
    public var reason: TermedText

    public init(adapter: AdapterName, beacons: [BeaconName], reason: TermedText) {
        self.adapter = adapter
        self.beacons = beacons
        self.reason = reason
    }

    /// The beacons, or `its advertising` when they are not known.
    public var what: String { beacons.isEmpty ? "its advertising" : beacons.map(\.text).joined(separator: ", ") }

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// `hci0: may still be on air: …`, and why.
    public var termedText: TermedText { "\(adapter): may still be on air: \(what) (\(reason))" }
}

/// Why ``RunningFleet/advertise(_:for:)`` did not end cleanly.
public enum FleetError: Error, CustomStringConvertible, TermedTextConvertible {
    /// Nothing was sent: the probe failed, or a controller would refuse the plan.
    case notStarted(AdapterError)
    /// The run failed, or its teardown did.
    case ended(FleetOutcome)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// What went wrong, its advice's terms kept for the front end to name.
    public var termedText: TermedText {
        switch self {
        case .notStarted(let e): e.termedText
        case .ended(let o): o.termedText
        }
    }
}
