// SPDX-License-Identifier: GPL-2.0-or-later

/// CoreLocation's coarse distance classes (`CLProximity`).
public enum Proximity: String, Hashable, Sendable, CaseIterable {
    /// No fresh report in the ranging window, or no distance estimate.
    case unknown
    /// Within ``ProximityThresholds/immediate`` (0.5 m by default).
    case immediate
    /// Within ``ProximityThresholds/near`` (3 m by default).
    case near
    /// Farther.
    case far
}

/// Where ``Proximity/immediate`` ends and ``Proximity/near`` ends, in metres. The defaults follow
/// Apple's description of `CLProximity` (immediate: within about half a metre; near: 1–3 m).
public struct ProximityThresholds: Hashable, Sendable {
    public var immediate: Double
    public var near: Double

    /// - Precondition: `0 < immediate <= near`.
    public init(immediate: Double = 0.5, near: Double = 3.0) {
        precondition(immediate > 0 && immediate <= near, "proximity thresholds must satisfy 0 < immediate <= near")
        self.immediate = immediate
        self.near = near
    }

    public static let standard = ProximityThresholds()

    /// The class of an estimated distance; `nil` (no estimate) is ``Proximity/unknown``.
    /// Boundaries belong to the farther class: exactly 0.5 m is near.
    public func proximity(forDistance distance: Double?) -> Proximity {
        guard let distance, distance.isFinite, distance >= 0 else { return .unknown }
        if distance < immediate { return .immediate }
        if distance < near { return .near }
        return .far
    }
}
