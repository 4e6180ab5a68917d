// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconAdapters
import BeaconProfiles
import HCI
import HCITransport
import Synchronization
import VirtualController

/// A whole run of a fleet, from opening its adapters to the last teardown: what `beacon
/// advertise` does, for any program.
///
/// ```swift
/// let signals = StopSignals()                         // Ctrl-C and SIGTERM stop the run cleanly
/// let run = FleetRun(beacons: fleet.beacons, on: [.virtual(options: [:])])
/// run.stop(on: signals)
/// try await run.start()                               // open, probe, plan once, on air
/// let outcome = await run.run(for: nil)               // until stopped; then everything is off air
/// ```
///
/// The run opens every adapter or none (`AdapterOpening.open(_:)`), probes and plans once
/// (``prepare()``; the plan it returns is the one ``start()`` carries out), and keeps the
/// beacons on air until ``requestStop()``, a stop signal, the duration given to ``run(for:)``
/// or a controller failure. A stop asked for at any stage is honoured: before the adapters are
/// open nothing is opened, while planning or checking nothing is sent, and once on air every
/// adapter is torn down. ``reload(_:)`` carries new beacons (only the difference goes on air),
/// and ``run(for:)`` returns what the teardown left, if anything (``FleetOutcome/leftOnAir``),
/// with the adapters closed.
public final class FleetRun: Sendable {
    /// The adapters the run opens, in order (`all` expanded when they are opened).
    public let adapters: [AdapterSpec]
    public let opening: AdapterOpening
    public let planner: FleetPlanner
    /// How long each teardown exchange may take (nil: each connection's command timeout).
    public let teardownTimeout: Duration?
    /// Every event of the run, in order; finishes when the run has ended.
    public let events: AsyncStream<EmulatorEvent>
    /// Each new plan an update puts on air after the start's (a reload, a scenario's step);
    /// finishes when the run has ended. Updates that only change telemetry data are not new plans.
    public let plans: AsyncStream<FleetPlan>

    private let eventSink: AsyncStream<EmulatorEvent>.Continuation
    private let planSink: AsyncStream<FleetPlan>.Continuation
    private let report: @Sendable (EmulatorEvent) -> Void
    private let state: Mutex<State>

    private struct State {
        /// The beacons last asked for (by the start or a reload).
        var requested: [BeaconProfile]
        var connections: [AdapterConnection] = []
        var fleet: RunningFleet?
        var plan: FleetPlan?
        var stopRequested = false
        var closed = false
        /// The generation of the last update whose plan was passed to ``plans``.
        var planned = 1
    }

    /// - Parameters:
    ///   - beacons: what to put on air.
    ///   - adapters: where; every one is opened, or none.
    ///   - opening: how the adapters are opened (for advertising unless told otherwise).
    ///   - planner: how the beacons are placed on the controllers.
    ///   - teardownTimeout: how long each teardown exchange may take.
    ///   - report: called synchronously with every event, in order, before it reaches
    ///     ``events`` (for a live view that must never lag).
    public init(beacons: [BeaconProfile], on adapters: [AdapterSpec], opening: AdapterOpening = AdapterOpening(advertising: true),
                planner: FleetPlanner = FleetPlanner(), teardownTimeout: Duration? = nil,
                report: @escaping @Sendable (EmulatorEvent) -> Void = { _ in }) {
        self.adapters = adapters
        self.opening = opening
        self.planner = planner
        self.teardownTimeout = teardownTimeout
        self.report = report
        (events, eventSink) = AsyncStream.makeStream(of: EmulatorEvent.self, bufferingPolicy: .bufferingNewest(65_536))
        (plans, planSink) = AsyncStream.makeStream(of: FleetPlan.self, bufferingPolicy: .bufferingNewest(64))
        state = Mutex(State(requested: beacons))
    }

    // MARK: - What the run has

    /// The open adapters (empty before ``prepare()`` and after the run).
    public var connections: [AdapterConnection] { state.withLock { $0.connections } }

    /// The fleet on the open adapters, once ``prepare()`` has opened them: a program that drives
    /// the beacons itself (a scenario, a walk) updates it.
    public var fleet: RunningFleet? { state.withLock { $0.fleet } }

    /// The beacons last asked for: the start's, or the last reload's.
    public var beacons: [BeaconProfile] { state.withLock { $0.requested } }

    /// The plan now carried out (or, before the start, the one it will carry out).
    public var currentPlan: FleetPlan? { state.withLock { s in s.fleet?.currentPlan ?? s.plan } }

    /// Whether a stop was asked for (by a call or a signal).
    public var isStopRequested: Bool { state.withLock { $0.stopRequested } }

    // MARK: - Open, plan, start

    /// Opens every adapter (closing them again if one fails), probes the controllers and plans
    /// the beacons; nothing goes on air. Returns nil when a stop was asked for first (nothing is
    /// opened then). A second call returns the same plan.
    public func prepare() async throws(FleetRunError) -> FleetPlan? {
        let (fleet, known) = try openFleet()
        guard let fleet else { return nil }
        if let known { return known }
        let plan: FleetPlan
        do throws(AdapterError) { plan = try await fleet.plan(beacons) } catch {
            close()
            throw .notStarted(error)
        }
        state.withLock { $0.plan = plan }
        return plan
    }

    /// Prepares (if ``prepare()`` was not called) and puts the beacons on air; returns the plan
    /// once every adapter has its share on air, or nil when the run stopped before anything was
    /// sent. Throws only when nothing was sent (adapters closed again).
    @discardableResult
    public func start() async throws(FleetRunError) -> FleetPlan? {
        guard try await prepare() != nil, let fleet else { return nil }
        place(beacons)
        do throws(AdapterError) {
            let plan = try await fleet.start(beacons)
            return fleet.isStopRequested && fleet.currentPlan == nil ? nil : plan
        } catch {
            close()
            throw .notStarted(error)
        }
    }

    /// Waits until the run ends: `duration` after the beacons went on air (nil: until stopped),
    /// on ``requestStop()`` or a signal, or on a controller failure; then every adapter is torn
    /// down and closed. The outcome says what ended the run and what may still be on air.
    public func run(for duration: Duration?) async -> FleetOutcome {
        let outcome: FleetOutcome
        if let fleet { outcome = await fleet.run(for: duration) } else { outcome = FleetOutcome(failure: nil, teardowns: []) }
        close()
        return outcome
    }

    // MARK: - Stop and reload

    /// Asks the run to stop; safe from any thread, at any stage. ``run(for:)`` returns once
    /// everything is off the air.
    public func requestStop() {
        let fleet = state.withLock { s in
            s.stopRequested = true
            return s.fleet
        }
        fleet?.requestStop()
    }

    /// Stops the run on the first signal `signals` handles.
    public func stop(on signals: StopSignals) {
        signals.onStop { [weak self] _ in self?.requestStop() }
    }

    /// What a reload asked for.
    public enum Reload: Sendable, Equatable {
        /// The beacons are those already asked for: nothing to do.
        case unchanged
        /// The run is stopping: the beacons are not taken.
        case stopping
        /// Taken before the start: the start puts them on air.
        case beforeStart
        /// Posted as update `generation` (see ``settled(_:)``): only the difference goes on air.
        case posted(generation: Int)
    }

    /// Carries `beacons` from now on instead of the ones asked for before.
    @discardableResult
    public func reload(_ beacons: [BeaconProfile]) -> Reload {
        let taken: RunningFleet?? = state.withLock { s in
            guard !s.stopRequested, beacons != s.requested else { return .none }
            s.requested = beacons
            return .some(s.fleet)
        }
        guard case .some(let fleet) = taken else { return isStopRequested ? .stopping : .unchanged }
        guard let fleet else { return .beforeStart }
        place(beacons)
        return .posted(generation: fleet.update(beacons))
    }

    /// Reads the profile files at `paths` again (as `ProfileLoader.load(paths:extra:accepting:)`
    /// does) and carries their beacons; throws, carrying on with the beacons from before, when a
    /// file has issues.
    @discardableResult
    public func reload(contentsOf paths: [String]) throws(ProfileErrors) -> Reload {
        reload(try ProfileLoader.load(paths: paths, accepting: .regularFiles).flatMap(\.beacons))
    }

    /// How a reload ended: waits until update `generation` is on air everywhere, was refused (the
    /// beacons from before stay), or the run ended first.
    public func settled(_ generation: Int) async -> RunningFleet.UpdateOutcome {
        guard let fleet else { return .ended }
        return await fleet.settled(generation)
    }

    /// Closes the adapters the run opened (``run(for:)`` does it; for a program that gives up
    /// before the run). Idempotent; the streams finish.
    public func close() {
        let connections: [AdapterConnection] = state.withLock { s in
            defer { s.closed = true; s.connections = [] }
            return s.closed ? [] : s.connections
        }
        for connection in connections { connection.close() }
        planSink.finish()
        eventSink.finish()
    }

    // MARK: - Internals

    /// The fleet, opening the adapters first if need be (nil: stopped before they were opened),
    /// and the plan already made, if any.
    private func openFleet() throws(FleetRunError) -> (RunningFleet?, FleetPlan?) {
        enum Stage { case stopped, ready(RunningFleet, FleetPlan?), open }
        let stage: Stage = state.withLock { s in
            if let fleet = s.fleet { return .ready(fleet, s.plan) }
            return s.stopRequested || s.closed ? .stopped : .open
        }
        switch stage {
        case .stopped: return (nil, nil)
        case .ready(let fleet, let plan): return (fleet, plan)
        case .open: break
        }
        let connections: [AdapterConnection]
        do throws(AdapterOpenError) { connections = try opening.open(adapters) } catch { throw .open(error) }
        let fleet = RunningFleet(connections: connections, planner: planner, teardownTimeout: teardownTimeout) { [weak self] event in
            self?.forward(event)
        }
        let stopped = state.withLock { s in
            s.connections = connections
            s.fleet = fleet
            return s.stopRequested
        }
        // A stop that came while the adapters were being opened reaches the fleet now.
        if stopped { fleet.requestStop() }
        return (fleet, nil)
    }

    private func forward(_ event: EmulatorEvent) {
        report(event)
        eventSink.yield(event)
        // Each applied update that was asked for (not a telemetry burst) may bring a new plan.
        guard case .applied(let generation, _) = event, let fleet else { return }
        let requested = fleet.requestGeneration
        let plan: FleetPlan? = state.withLock { s in
            guard generation >= requested, requested > s.planned, let plan = fleet.currentPlan else { return nil }
            s.planned = requested
            return plan
        }
        if let plan { planSink.yield(plan) }
    }

    /// Tells the shared virtual air where the beacons are (their profiles' `position:`), so
    /// receivers in other processes get RSSI from the distance, and how miscalibrated they are
    /// (`calibration_error:`). Beacons are known there by their address, which stays when their
    /// data changes.
    private func place(_ beacons: [BeaconProfile]) {
        for link in connections.compactMap(\.airLink) {
            for beacon in beacons where beacon.position != nil || beacon.calibrationError != 0 {
                link.place(address: beacon.address, at: beacon.position, calibrationError: beacon.calibrationError)
            }
        }
    }
}

/// Why a ``FleetRun`` put nothing on air.
public enum FleetRunError: Error, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// An adapter could not be opened (the others were closed again).
    case open(AdapterOpenError)
    /// A probe failed, or a controller would refuse the plan; the adapters were closed again.
    case notStarted(AdapterError)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The underlying error's text, its advice's terms kept for the front end to name.
    public var termedText: TermedText {
        switch self {
        case .open(let e): e.termedText
        case .notStarted(let e): e.termedText
        }
    }
}
