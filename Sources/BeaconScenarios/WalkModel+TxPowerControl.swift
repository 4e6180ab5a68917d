// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator

extension WalkModel.TxPowerControl {
    /// The TX power range every one of `controllers` takes, when all use extended sets under
    /// `planner` (legacy advertising has no host-chosen TX power): from the lowest top, at most
    /// 20 dBm, down to the highest bottom. `nil` when any controller does not say its range or
    /// the ranges do not overlap: the walk then changes only the measured power.
    public init?(controllers: [ControllerCapabilities], planner: FleetPlanner) {
        guard !controllers.isEmpty, controllers.allSatisfy({ planner.usesExtendedSets($0) }) else { return nil }
        let ranges = controllers.compactMap(\.txPowerRange)
        guard ranges.count == controllers.count else { return nil }
        let top = min(20, ranges.map { Int($0.upperBound) }.min()!)
        let bottom = max(-127, ranges.map { Int($0.lowerBound) }.max()!)
        guard bottom < top else { return nil }
        self.init(reference: top, minimum: bottom)
    }

    /// The control a running fleet's controllers allow (probed once), as
    /// ``init(controllers:planner:)`` decides; `nil` when probing fails.
    public static func available(on fleet: RunningFleet) async -> Self? {
        guard let controllers = try? await fleet.probe() else { return nil }
        return Self(controllers: controllers, planner: fleet.planner)
    }
}
