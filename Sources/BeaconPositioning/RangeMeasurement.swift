// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio

/// A ranged distance to a beacon of known position.
public struct RangeMeasurement: Hashable, Sendable {
    /// Where the beacon is, its mounting height as z (the range is the slant range to it).
    public var anchor: Point
    /// Metres.
    public var distance: Double
    /// Relative weight in the least-squares fit (the inverse variance of `distance`, up to a
    /// common factor).
    public var weight: Double

    public init(anchor: Point, distance: Double, weight: Double) {
        self.anchor = anchor
        self.distance = distance
        self.weight = weight
    }

    /// A range weighted for RSSI-derived distances: a fixed error in dB is a fixed *relative*
    /// error in distance (σ_d ≈ d · ln10 · σ_dB / (10 n)), so the weight is 1/d² (d floored at
    /// 10 cm so a beacon at the receiver cannot take all the weight).
    public static func fromRSSI(anchor: Point, distance: Double) -> RangeMeasurement {
        let d = max(distance, 0.1)
        return RangeMeasurement(anchor: anchor, distance: distance, weight: 1 / (d * d))
    }
}

/// Where the receiver probably is, and how sure the fit is.
public struct PositionEstimate: Hashable, Sendable {
    public var position: Point
    /// Root mean square of the range residuals `|p − aᵢ| − dᵢ`, in metres (unweighted).
    public var rmsResidual: Double
    /// The 2-D RMS radius (√(σ²ₓ + σ²ᵧ), metres) from the fit's covariance
    /// `s² (JᵀWJ)⁻¹`, s² the weighted residual variance, widened to reach ``alternative`` when
    /// there is one; `nil` with fewer than 3 ranges (no degrees of freedom left) or a degenerate
    /// geometry, and no alternative.
    public var errorRadius: Double?
    /// Ranges used.
    public var rangeCount: Int
    /// Levenberg–Marquardt iterations of the best start.
    public var iterations: Int
    /// Another position that fits the ranges about as well (within twice the fix's misfit plus a
    /// 1 dB error in every range, ``PositionSolver/rangeResolution``), farther from the fix than
    /// its error radius: the geometry cannot tell which is true (anchors on or near one line, the
    /// receiver mirrored across it; or only two ranges). ``errorRadius`` then reaches it. `nil`
    /// when the ranges decide.
    public var alternative: Point?

    /// Whether the geometry leaves two answers (``alternative``).
    public var isAmbiguous: Bool { alternative != nil }

    public init(position: Point, rmsResidual: Double, errorRadius: Double?, rangeCount: Int, iterations: Int,
                alternative: Point? = nil) {
        self.position = position
        self.rmsResidual = rmsResidual
        self.errorRadius = errorRadius
        self.rangeCount = rangeCount
        self.iterations = iterations
        self.alternative = alternative
    }
}
