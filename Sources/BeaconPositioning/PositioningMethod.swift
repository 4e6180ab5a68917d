// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import Foundation

/// How ranges become a position (`beacon locate --method`); docs/POSITIONING.md compares them.
public enum PositioningMethod: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The seed article's method: intersect the circles pair by pair and average the points.
    case circles
    /// Least squares: Σ (|p − aᵢ| − dᵢ)², every range weighted alike.
    case leastSquares = "ls"
    /// Weighted least squares, each range weighted 1/d² (``RangeMeasurement/fromRSSI(anchor:distance:)``): the default.
    case weightedLeastSquares = "wls"

    public var description: String { rawValue }

    /// The estimate from `ranges` (slant ranges to anchors at their heights) for a receiver at
    /// `receiverHeight` metres, or `nil` with fewer than two usable ones. Whatever the method,
    /// ``PositionEstimate/alternative`` says when the geometry leaves a second answer.
    ///
    /// The weighted fit starts from the plain one's answer too, so it is never worse, by its own
    /// cost, than `ls` on the same data.
    public func solve(_ ranges: [RangeMeasurement], receiverHeight: Double = 0) -> PositionEstimate? {
        let plain = ranges.map { RangeMeasurement(anchor: $0.anchor, distance: $0.distance, weight: 1) }
        switch self {
        case .weightedLeastSquares:
            let ls = PositionSolver.solve(plain, receiverHeight: receiverHeight)
            return PositionSolver.solve(ranges, receiverHeight: receiverHeight, starts: ls.map { [$0.position] } ?? [])
        case .leastSquares: return PositionSolver.solve(plain, receiverHeight: receiverHeight)
        case .circles: return CircleIntersection.solve(ranges, receiverHeight: receiverHeight)
        }
    }
}

/// Intersecting circles as the seed article does it: for every pair of ranges, the points where
/// the two circles meet; of two, the one that agrees better with the other circles. When the
/// circles miss each other (too far apart, or one inside the other, as noisy RSSI makes them
/// all the time) the pair gives the point on the line through the centres where the first
/// circle crosses it, facing the second: the usual fallback, and what drags the answer next to a
/// beacon whose circle is small. The position is the mean of the pairs' points. The circles lie
/// in the receiver's plane: a slant range r to a beacon mounted h above it is a circle of
/// √(r² − h²) (0 when the range is shorter than the height).
public enum CircleIntersection {
    public static func solve(_ ranges: [RangeMeasurement], receiverHeight: Double = 0) -> PositionEstimate? {
        let usable = PositionSolver.usableRanges(ranges)
        guard usable.count >= 2 else { return nil }
        let circles = usable.map { r -> RangeMeasurement in
            let dz = r.anchor.z - receiverHeight
            return RangeMeasurement(anchor: Point(x: r.anchor.x, y: r.anchor.y), distance: max(r.distance * r.distance - dz * dz, 0).squareRoot(),
                                    weight: r.weight)
        }
        var points: [Point] = []
        for i in circles.indices {
            for j in circles.indices where j > i {
                let others = circles.indices.filter { $0 != i && $0 != j }.map { circles[$0] }
                points.append(point(circles[i], circles[j], others: others))
            }
        }
        let mean = Point(x: points.reduce(0) { $0 + $1.x } / Double(points.count),
                         y: points.reduce(0) { $0 + $1.y } / Double(points.count))
        return PositionSolver.estimate(at: mean, usable, iterations: 0, receiverHeight: receiverHeight)
    }

    /// The point one pair of circles gives.
    static func point(_ a: RangeMeasurement, _ b: RangeMeasurement, others: [RangeMeasurement]) -> Point {
        let dx = b.anchor.x - a.anchor.x, dy = b.anchor.y - a.anchor.y
        let d = hypot(dx, dy)
        guard d > 1e-9 else { return a.anchor }
        let ux = dx / d, uy = dy / d
        let r1 = a.distance, r2 = b.distance
        // No intersection: apart (d > r1 + r2) or nested (d < |r1 − r2|).
        guard d <= r1 + r2, d >= abs(r1 - r2) else {
            return Point(x: a.anchor.x + r1 * ux, y: a.anchor.y + r1 * uy)
        }
        let along = (r1 * r1 - r2 * r2 + d * d) / (2 * d)
        let h = max(r1 * r1 - along * along, 0).squareRoot()
        let base = Point(x: a.anchor.x + along * ux, y: a.anchor.y + along * uy)
        let p1 = Point(x: base.x - h * uy, y: base.y + h * ux)
        let p2 = Point(x: base.x + h * uy, y: base.y - h * ux)
        func misfit(_ p: Point) -> Double { others.reduce(0) { $0 + abs(p.distance(to: $1.anchor) - $1.distance) } }
        let (m1, m2) = (misfit(p1), misfit(p2))
        // A tie (no other circle, or all of them on the pair's line): the same one of the two
        // mirror images for every pair, so the mean is one answer, not a point between them.
        if abs(m1 - m2) <= 1e-9 * (1 + m1) { return (p2.y, p2.x) > (p1.y, p1.x) ? p2 : p1 }
        return m2 < m1 ? p2 : p1
    }
}
