// SPDX-License-Identifier: GPL-2.0-or-later

/// The maps' one visual language: what each kind of shape looks like and what the legend calls
/// it. Colours are the ColorBrewer RdYlGn/Blues picks, told apart in grey print by their shapes
/// (filled disc, ring, cross, diamond) and dash patterns.
public enum MapStyle: String, Hashable, Sendable, CaseIterable {
    /// A beacon on air.
    case onAir
    /// A beacon off air (hidden, stopped, not started).
    case offAir
    /// A beacon whose start or update failed.
    case failed
    /// The receiver's estimated position.
    case estimate
    /// The receiver's true position (a simulation, `--at`, the walker).
    case truth
    /// A walker on its route.
    case walker
    /// A wall of a room.
    case wall
    /// A beacon's ranged distance at the last fix.
    case ranging
    /// An estimate's 1-sigma error radius.
    case uncertainty
    /// The estimates over time.
    case trail
    /// A walker's route.
    case route
    /// From an estimate to the true position at its time.
    case miss
    /// A site's radio that is online (or, on a plan, one that carries beacons).
    case radio
    /// A site's radio that is offline (its host gone, or the radio failed).
    case radioOffline
    /// From a beacon to the radio that carries it.
    case carrier

    /// The colour, as SVG writes it.
    public var colour: String {
        switch self {
        case .onAir: "#1a9850"
        case .offAir: "#9e9e9e"
        case .failed: "#d73027"
        case .estimate, .uncertainty, .trail: "#2166ac"
        case .truth: "#111111"
        case .walker, .route: "#e08214"
        case .wall: "#333333"
        case .ranging: "#1a9850"
        case .miss: "#d73027"
        case .radio: "#6a3d9a"
        case .radioOffline: "#d73027"
        case .carrier: "#9e9ac8"
        }
    }

    /// The legend's words for it.
    public var legendText: String {
        switch self {
        case .onAir: "beacon on air"
        case .offAir: "beacon off air"
        case .failed: "beacon in error"
        case .estimate: "estimate"
        case .truth: "true position"
        case .walker: "walker"
        case .wall: "wall"
        case .ranging: "ranged distance"
        case .uncertainty: "1σ error radius"
        case .trail: "estimates over time"
        case .route: "route"
        case .miss: "error (estimate → truth)"
        case .radio: "radio"
        case .radioOffline: "radio offline"
        case .carrier: "carried by (beacon → radio)"
        }
    }

    /// Whether this style marks a beacon (the markers the play timeline turns on and off).
    public var isBeacon: Bool { self == .onAir || self == .offAir || self == .failed }
}
