// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization
import BeaconCodec
import HCI
import HCITransport

/// One scan from start to stop: turns scanning on, feeds the controller's events through a
/// ``ScanEngine``, ticks it every `updateInterval`, and turns scanning off again when the duration
/// passes or the task is cancelled (Ctrl-C), so the controller is left as it was found.
public struct ScanSession: Sendable {
    public var hci: HCIController
    /// Whether we own the controller (may reset it): see ``ScanController/start(on:owned:settings:)``.
    public var owned: Bool
    public var settings: ScanSettings
    public var regions: [BeaconRegion]
    public var ranging: RangingConfiguration
    public var exitAfter: Duration
    /// How often ranging updates come (and exits are checked); iOS ranges about once a second.
    public var updateInterval: Duration
    /// The clock; injectable for tests.
    public var now: @Sendable () -> ContinuousClock.Instant
    /// The formats heard at all (`nil`: every one), as ``ScanEngine`` takes them.
    public var formats: Set<BeaconFormat>? = nil

    public init(hci: HCIController, owned: Bool, settings: ScanSettings = ScanSettings(), regions: [BeaconRegion] = [.any],
                ranging: RangingConfiguration = RangingConfiguration(), exitAfter: Duration = .seconds(30),
                updateInterval: Duration = .seconds(1), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.hci = hci
        self.owned = owned
        self.settings = settings
        self.regions = regions
        self.ranging = ranging
        self.exitAfter = exitAfter
        self.updateInterval = updateInterval
        self.now = now
    }

    /// A session that ranges and monitors like `phone` (its regions checked against its limit).
    public init(hci: HCIController, owned: Bool, phone: PhoneScanning, settings: ScanSettings = ScanSettings(),
                regions: [BeaconRegion] = [.any], now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) throws(PhoneScanning.TooManyRegions) {
        try phone.check(regions: regions)
        self.init(hci: hci, owned: owned, settings: settings, regions: regions, ranging: phone.ranging, exitAfter: phone.exitAfter,
                  updateInterval: phone.updateInterval, now: now)
        formats = phone.formats
    }

    /// Why a scan ended early.
    public enum Failure: Error, Sendable, CustomStringConvertible, TermedTextConvertible {
        /// Starting or stopping failed.
        case controller(HCIControllerError)
        /// The controller's event stream ended (the transport closed or failed).
        case eventsEnded(adapter: String)

        /// ``termedText`` in words.
        public var description: String { termedText.description }

        /// What failed, the controller's advice's terms kept for the front end to name.
        public var termedText: TermedText {
            switch self {
            case .controller(let e): e.termedText
            case .eventsEnded(let adapter): "\(adapter): the controller went away while scanning"
            }
        }
    }

    /// Scans until `duration` passes (nil: until cancelled), delivering every update to `onUpdate`
    /// (from one task at a time, in order). Returns after scanning is off again.
    public func run(duration: Duration?, onUpdate: @escaping @Sendable (ScanUpdate) -> Void) async throws(Failure) {
        let scanner: ScanController
        do throws(HCIControllerError) { scanner = try await ScanController.start(on: hci, owned: owned, settings: settings) } catch {
            throw .controller(error)
        }
        onUpdate(.started(scanner.mode))
        let engine = EngineBox(ScanEngine(regions: regions, ranging: ranging, exitAfter: exitAfter, formats: formats), onUpdate: onUpdate)
        let streamEnded = await withTaskGroup(of: Bool.self) { group in
            let events = hci.events
            let now = self.now
            group.addTask {
                for await event in events { engine.ingest(event, at: now()) }
                return !Task.isCancelled  // the stream finished by itself: the controller is gone
            }
            let interval = updateInterval
            group.addTask {
                // Deadlines rather than sleeps, so the updates keep their rhythm without drifting.
                var next = ContinuousClock.now + interval
                while (try? await Task.sleep(until: next, clock: .continuous)) != nil {
                    engine.tick(at: now())
                    next += interval
                }
                return false
            }
            if let duration {
                group.addTask {
                    try? await Task.sleep(for: duration)
                    return false
                }
            }
            // Whichever ends first (the duration, the stream, or cancellation) ends them all.
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if streamEnded { throw .eventsEnded(adapter: hci.adapterName) }
        // Not cancellable: a cancelled run must still turn scanning off.
        let stopped: Result<Void, HCIControllerError> = await Task.detached {
            do throws(HCIControllerError) { try await scanner.stop(); return .success(()) } catch { return .failure(error) }
        }.value
        engine.tick(at: now())
        onUpdate(.stopped)
        if case .failure(let error) = stopped { throw .controller(error) }
    }
}

/// The engine shared by the event task and the ticking task, behind a lock; updates are delivered
/// under the lock so they stay in order.
final class EngineBox: Sendable {
    private let engine: Mutex<ScanEngine>
    private let onUpdate: @Sendable (ScanUpdate) -> Void

    init(_ engine: ScanEngine, onUpdate: @escaping @Sendable (ScanUpdate) -> Void) {
        self.engine = Mutex(engine)
        self.onUpdate = onUpdate
    }

    func ingest(_ event: HCIEvent, at time: ContinuousClock.Instant) {
        engine.withLock { e in for u in e.ingest(event, at: time) { onUpdate(u) } }
    }

    func tick(at time: ContinuousClock.Instant) {
        engine.withLock { e in for u in e.tick(at: time) { onUpdate(u) } }
    }
}
