// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconProfiles
import HCI
import HCITransport
import Synchronization

/// A fleet of beacons on one or more open controllers: probe, plan, run, stop.
public final class Fleet: Sendable {
    public let connections: [AdapterConnection]
    public let planner: FleetPlanner
    let report: @Sendable (EmulatorEvent) -> Void
    /// What the last probe found, so a reload can plan again without probing (a probe may reset
    /// the controller, which would take everything off air).
    private let probed = Mutex<[ControllerCapabilities]>([])

    public init(connections: [AdapterConnection], planner: FleetPlanner = FleetPlanner(), report: @escaping @Sendable (EmulatorEvent) -> Void = { _ in }) {
        self.connections = connections
        self.planner = planner
        self.report = report
    }

    /// Probes every controller (resetting the ones we own) and plans the beacons across them.
    public func plan(_ beacons: [BeaconProfile]) async throws(HCIControllerError) -> (FleetPlan, [AdapterRunner]) {
        var capabilities: [ControllerCapabilities] = []
        for c in connections {
            capabilities.append(try await ControllerProbe.probe(c.hci, reset: c.mayReset))
        }
        probed.withLock { $0 = capabilities }
        return replan(beacons)
    }

    /// Plans `beacons` on the controllers as last probed, without talking to them.
    public func replan(_ beacons: [BeaconProfile]) -> (FleetPlan, [AdapterRunner]) {
        let capabilities = probed.withLock { $0 }
        precondition(!capabilities.isEmpty, "probe the controllers with plan(_:) first")
        let plan = planner.plan(beacons, on: capabilities)
        let runners = plan.adapters.map { a in
            let hci = connections.first { $0.hci.adapterName == a.capabilities.adapter }!.hci
            return AdapterRunner(hci: hci, plan: a, report: report)
        }
        return (plan, runners)
    }

    /// Starts every adapter, rotates until `duration` passes or the task is cancelled, then
    /// stops every adapter (advertising off, sets removed) — also when starting failed half-way.
    ///
    /// - Parameters:
    ///   - resumingFrom: per adapter, what an earlier run left on air (see ``AdapterRunner/onAir``):
    ///     those adapters get only the difference instead of a clean start.
    ///   - keepOnAir: asked at the end; `true` skips the teardown (a reload that continues with
    ///     the difference).
    public static func run(_ runners: [AdapterRunner], duration: Duration?,
                           resumingFrom: [String: [UInt8: AdvertisingSetConfiguration]] = [:],
                           keepOnAir: @Sendable () -> Bool = { false }) async throws(HCIControllerError) {
        for r in runners { try r.validate() }  // nothing is sent unless every adapter's program is valid
        var failure: HCIControllerError?
        var started: [AdapterRunner] = []
        for r in runners {
            do throws(HCIControllerError) {
                try await r.start(resumingFrom: resumingFrom[r.plan.capabilities.adapter])
                started.append(r)
            } catch {
                started.append(r)
                failure = error
                break
            }
        }
        if failure == nil {
            let start = ContinuousClock.now
            let deadline = duration.map { start + $0 }
            failure = await withTaskGroup(of: HCIControllerError?.self) { group in
                for r in runners {
                    group.addTask {
                        do throws(HCIControllerError) { try await r.rotate(until: deadline, startingAt: start); return nil } catch { return error }
                    }
                }
                // Keeps the run alive until the deadline, or until cancelled (Ctrl-C) without one,
                // also when nothing rotates.
                group.addTask {
                    if let deadline {
                        try? await Task.sleep(until: deadline, clock: .continuous)
                    } else {
                        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
                    }
                    return nil
                }
                var first: HCIControllerError?
                for await result in group {
                    if let result, first == nil { first = result; group.cancelAll() }
                }
                return first
            }
        }
        if failure != nil || !keepOnAir() {
            for r in started { await r.stop() }
        }
        if let failure { throw failure }
    }
}
