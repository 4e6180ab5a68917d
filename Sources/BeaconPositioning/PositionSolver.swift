// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import Foundation

/// Estimates a 2-D position from ranges to known points by weighted nonlinear least squares:
/// minimise Σ wᵢ (|p − aᵢ| − dᵢ)² with Levenberg–Marquardt.
///
/// Unlike intersecting two circles (no answer when one circle lies inside the other, or when
/// noisy circles miss each other), the fit uses every range and always has an answer: the point
/// that disagrees least with all of them.
///
/// It starts from the weighted centroid of the anchors and, because the cost can have a second
/// minimum mirrored across the anchors' line when geometry is poor, also from each anchor; the
/// lowest cost wins.
public enum PositionSolver {
    /// The estimate, or `nil` with fewer than two ranges (a position needs at least two in 2-D;
    /// two leave a mirror ambiguity, three or more settle it).
    public static func solve(_ ranges: [RangeMeasurement], maximumIterations: Int = 100) -> PositionEstimate? {
        let usable = ranges.filter { $0.distance.isFinite && $0.distance >= 0 && $0.weight > 0 && $0.weight.isFinite }
        guard usable.count >= 2 else { return nil }
        let totalWeight = usable.reduce(0) { $0 + $1.weight }
        let centroid = Point(x: usable.reduce(0) { $0 + $1.weight * $1.anchor.x } / totalWeight,
                                  y: usable.reduce(0) { $0 + $1.weight * $1.anchor.y } / totalWeight)
        var best: (point: Point, cost: Double, iterations: Int)? = nil
        for start in [centroid] + usable.map(\.anchor) {
            let fit = levenbergMarquardt(usable, from: start, maximumIterations: maximumIterations)
            if best == nil || fit.cost < best!.cost - 1e-12 { best = fit }
        }
        guard let best else { return nil }
        return estimate(at: best.point, usable, iterations: best.iterations)
    }

    /// Weighted cost Σ wᵢ rᵢ².
    static func cost(_ p: Point, _ ranges: [RangeMeasurement]) -> Double {
        ranges.reduce(0) { sum, r in
            let residual = p.distance(to: r.anchor) - r.distance
            return sum + r.weight * residual * residual
        }
    }

    /// The normal equations at `p`: JᵀWJ (symmetric 2×2 as a, b, c) and JᵀWr.
    static func normalEquations(_ p: Point, _ ranges: [RangeMeasurement]) -> (a: Double, b: Double, c: Double, gx: Double, gy: Double) {
        var a = 0.0, b = 0.0, c = 0.0, gx = 0.0, gy = 0.0
        for r in ranges {
            let dx = p.x - r.anchor.x, dy = p.y - r.anchor.y
            let norm = hypot(dx, dy)
            // At an anchor the gradient of |p − a| is undefined; any unit vector keeps the step finite.
            let (jx, jy) = norm > 1e-12 ? (dx / norm, dy / norm) : (1.0, 0.0)
            let residual = norm - r.distance
            a += r.weight * jx * jx
            b += r.weight * jx * jy
            c += r.weight * jy * jy
            gx += r.weight * jx * residual
            gy += r.weight * jy * residual
        }
        return (a, b, c, gx, gy)
    }

    static func levenbergMarquardt(_ ranges: [RangeMeasurement], from start: Point,
                                   maximumIterations: Int) -> (point: Point, cost: Double, iterations: Int) {
        var p = start
        var currentCost = cost(p, ranges)
        var lambda = 1e-3
        var iterations = 0
        while iterations < maximumIterations {
            iterations += 1
            let n = normalEquations(p, ranges)
            var improved = false
            // Raise λ until a step lowers the cost (or λ is so large the step is nothing).
            while lambda < 1e12 {
                // (JᵀWJ + λ·diag(JᵀWJ)) δ = −JᵀWr, with a tiny floor so a zero diagonal still damps.
                let a = n.a + lambda * max(n.a, 1e-9)
                let c = n.c + lambda * max(n.c, 1e-9)
                let det = a * c - n.b * n.b
                guard det.isFinite, abs(det) > 1e-300 else {
                    lambda *= 10
                    continue
                }
                let dx = (-n.gx * c + n.gy * n.b) / det
                let dy = (-n.gy * a + n.gx * n.b) / det
                let candidate = Point(x: p.x + dx, y: p.y + dy)
                let candidateCost = cost(candidate, ranges)
                if candidateCost < currentCost {
                    let stepLength = hypot(dx, dy)
                    p = candidate
                    currentCost = candidateCost
                    lambda = max(lambda / 10, 1e-12)
                    improved = stepLength > 1e-10
                    break
                }
                lambda *= 10
            }
            if !improved { break }
        }
        return (p, currentCost, iterations)
    }

    /// Residual statistics and the covariance radius at the solution.
    static func estimate(at p: Point, _ ranges: [RangeMeasurement], iterations: Int) -> PositionEstimate {
        var sumSquares = 0.0
        for r in ranges {
            let residual = p.distance(to: r.anchor) - r.distance
            sumSquares += residual * residual
        }
        let rms = (sumSquares / Double(ranges.count)).squareRoot()
        var radius: Double? = nil
        if ranges.count > 2 {
            let n = normalEquations(p, ranges)
            let det = n.a * n.c - n.b * n.b
            if det > 1e-12 {
                let variance = cost(p, ranges) / Double(ranges.count - 2)
                // trace((JᵀWJ)⁻¹) = (a + c) / det.
                radius = (variance * (n.a + n.c) / det).squareRoot()
            }
        }
        return PositionEstimate(position: p, rmsResidual: rms, errorRadius: radius, rangeCount: ranges.count, iterations: iterations)
    }
}
