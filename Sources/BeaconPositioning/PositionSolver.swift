// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import Foundation

/// Estimates a position on the floor plan from ranges to known points by weighted nonlinear
/// least squares: minimise the cost Σ wᵢ (|p − aᵢ| − dᵢ)² with Levenberg–Marquardt, p at the
/// receiver's height and the anchors aᵢ at theirs (the ranges are slant ranges, as the air
/// carries them; a beacon on the ceiling right above the receiver is its mounting height away).
///
/// Unlike intersecting two circles (no answer when one circle lies inside the other, or when
/// noisy circles miss each other), the fit uses every range and always has an answer: the point
/// that disagrees least with all of them.
///
/// The cost often has a second minimum: the mirror image of the receiver across a line that
/// most anchors lie near (beacons along one corridor or one diagonal are common). A local method
/// started in the wrong basin stops there and reports it with a small error radius, so the fit
/// is global: the cost is evaluated on a grid over the anchors and their ranges, and
/// Levenberg–Marquardt runs from each of the grid's lowest local minima, from the weighted centroid,
/// from the nearest anchors and from any `starts` the caller adds (another method's answer),
/// then from the best answer's mirror images across the lines the anchors lie near (their
/// principal axis, and the lines through pairs of the nearest); the lowest cost wins. The answer is therefore never worse, by this cost, than any of those
/// points.
///
/// When another minimum fits nearly as well (``PositionEstimate/alternative``), the geometry
/// does not decide between them: the estimate says so and its error radius covers both.
public enum PositionSolver {
    /// The relative range error of a 1 dB RSSI error at path-loss exponent 2 (ln 10 / 20): the
    /// finest difference RSSI, reported in whole dB, can make between two fits.
    public static let rangeResolution = log(10.0) / 20

    /// The estimate, or `nil` with fewer than two ranges (a position needs at least two in 2-D;
    /// two leave a mirror ambiguity, three or more off one line settle it).
    ///
    /// - Parameters:
    ///   - receiverHeight: the receiver's height in metres in the anchors' frame (the estimate's z).
    ///   - starts: further points to start from (their cost bounds the answer's).
    public static func solve(_ ranges: [RangeMeasurement], receiverHeight: Double = 0, starts: [Point] = [],
                             maximumIterations: Int = 100) -> PositionEstimate? {
        let usable = usableRanges(ranges)
        guard usable.count >= 2 else { return nil }
        let minima = localMinima(usable, receiverHeight: receiverHeight, starts: starts, maximumIterations: maximumIterations)
        guard let best = minima.first else { return nil }
        return estimate(at: best.point, usable, iterations: best.iterations, receiverHeight: receiverHeight, minima: minima)
    }

    /// The ranges a fit can use: finite, non-negative distances with a positive weight.
    static func usableRanges(_ ranges: [RangeMeasurement]) -> [RangeMeasurement] {
        ranges.filter { $0.distance.isFinite && $0.distance >= 0 && $0.weight > 0 && $0.weight.isFinite
            && [$0.anchor.x, $0.anchor.y, $0.anchor.z].allSatisfy(\.isFinite) }
    }

    /// Weighted cost Σ wᵢ rᵢ² at `p` (its z taken as given).
    public static func cost(_ p: Point, _ ranges: [RangeMeasurement]) -> Double {
        ranges.reduce(0) { sum, r in
            let residual = p.distance(to: r.anchor) - r.distance
            return sum + r.weight * residual * residual
        }
    }

    /// Grid cells per side of the search (the grid's local minima are the starts).
    static let gridSide = 24
    /// How many of the grid's local minima are refined (the lowest first).
    static let gridStarts = 6
    /// How many anchors (those with the shortest ranges) are starts too.
    static let anchorStarts = 4

    /// The cost's distinct local minima, lowest first (ties by position, so the order is
    /// stable): Levenberg–Marquardt from every start.
    static func localMinima(_ ranges: [RangeMeasurement], receiverHeight z: Double, starts extra: [Point],
                            maximumIterations: Int) -> [(point: Point, cost: Double, iterations: Int)] {
        let totalWeight = ranges.reduce(0) { $0 + $1.weight }
        let centroid = Point(x: ranges.reduce(0) { $0 + $1.weight * $1.anchor.x } / totalWeight,
                             y: ranges.reduce(0) { $0 + $1.weight * $1.anchor.y } / totalWeight, z: z)
        let nearest = ranges.sorted { ($0.distance, $0.anchor.x, $0.anchor.y) < ($1.distance, $1.anchor.x, $1.anchor.y) }
            .prefix(anchorStarts).map { Point(x: $0.anchor.x, y: $0.anchor.y, z: z) }
        let starts = [centroid] + gridMinima(ranges, receiverHeight: z) + nearest
            + extra.filter { $0.x.isFinite && $0.y.isFinite }.map { Point(x: $0.x, y: $0.y, z: z) }
        var minima: [(point: Point, cost: Double, iterations: Int)] = []
        func descend(from start: Point) {
            let fit = levenbergMarquardt(ranges, from: start, maximumIterations: maximumIterations)
            // One minimum reached from several starts counts once (the lower of the two).
            if let same = minima.firstIndex(where: { $0.point.distance(to: fit.point) < 1e-3 }) {
                if fit.cost < minima[same].cost { minima[same] = fit }
            } else {
                minima.append(fit)
            }
        }
        starts.forEach(descend)
        func sorted() -> [(point: Point, cost: Double, iterations: Int)] {
            minima.sorted { ($0.cost, $0.point.x, $0.point.y) < ($1.cost, $1.point.x, $1.point.y) }
        }
        // The second minimum a coarse grid can miss is the mirror image of the first across a
        // line the anchors lie near: start from the best one's reflections too.
        if let best = sorted().first {
            for line in mirrorLines(ranges) { descend(from: reflect(best.point, across: line)) }
        }
        return sorted()
    }

    /// Lines the anchors may lie near, each as a point and a unit direction in the plane: the
    /// weighted principal axis of all of them, and the line through each pair of the
    /// ``anchorStarts`` nearest.
    static func mirrorLines(_ ranges: [RangeMeasurement]) -> [(origin: Point, direction: (x: Double, y: Double))] {
        let total = ranges.reduce(0) { $0 + $1.weight }
        let cx = ranges.reduce(0) { $0 + $1.weight * $1.anchor.x } / total
        let cy = ranges.reduce(0) { $0 + $1.weight * $1.anchor.y } / total
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for r in ranges {
            let (dx, dy) = (r.anchor.x - cx, r.anchor.y - cy)
            sxx += r.weight * dx * dx
            sxy += r.weight * dx * dy
            syy += r.weight * dy * dy
        }
        // The principal eigenvector of the 2×2 scatter: angle ½·atan2(2sxy, sxx − syy).
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var lines = [(origin: Point(x: cx, y: cy), direction: (x: cos(angle), y: sin(angle)))]
        let nearest = ranges.sorted { ($0.distance, $0.anchor.x, $0.anchor.y) < ($1.distance, $1.anchor.x, $1.anchor.y) }.prefix(anchorStarts)
        for (i, a) in nearest.enumerated() {
            for b in nearest.dropFirst(i + 1) {
                let (dx, dy) = (b.anchor.x - a.anchor.x, b.anchor.y - a.anchor.y)
                let length = hypot(dx, dy)
                guard length > 1e-9 else { continue }
                lines.append((origin: a.anchor, direction: (x: dx / length, y: dy / length)))
            }
        }
        return lines
    }

    /// `p` mirrored across a line in the plane (its z kept).
    static func reflect(_ p: Point, across line: (origin: Point, direction: (x: Double, y: Double))) -> Point {
        let (dx, dy) = (p.x - line.origin.x, p.y - line.origin.y)
        let along = dx * line.direction.x + dy * line.direction.y
        let (fx, fy) = (line.origin.x + along * line.direction.x, line.origin.y + along * line.direction.y)
        return Point(x: 2 * fx - p.x, y: 2 * fy - p.y, z: p.z)
    }

    /// The grid points lower than their eight neighbours, lowest first: over the anchors'
    /// bounding box widened by the longest horizontal range (where every circle lies).
    static func gridMinima(_ ranges: [RangeMeasurement], receiverHeight z: Double) -> [Point] {
        let reach = ranges.map { r -> Double in
            let dz = r.anchor.z - z
            return max(r.distance * r.distance - dz * dz, 0).squareRoot()
        }.max() ?? 0
        let xs = ranges.map(\.anchor.x), ys = ranges.map(\.anchor.y)
        let minX = xs.min()! - reach, maxX = xs.max()! + reach
        let minY = ys.min()! - reach, maxY = ys.max()! + reach
        let side = gridSide
        let stepX = max(maxX - minX, 1e-3) / Double(side - 1), stepY = max(maxY - minY, 1e-3) / Double(side - 1)
        var grid = [Double](repeating: 0, count: side * side)
        for i in 0..<side {
            for j in 0..<side {
                grid[i * side + j] = cost(Point(x: minX + Double(i) * stepX, y: minY + Double(j) * stepY, z: z), ranges)
            }
        }
        var found: [(cost: Double, point: Point)] = []
        for i in 0..<side {
            for j in 0..<side {
                let c = grid[i * side + j]
                var lowest = true
                for di in -1...1 {
                    for dj in -1...1 where (di, dj) != (0, 0) {
                        let (ni, nj) = (i + di, j + dj)
                        guard (0..<side).contains(ni), (0..<side).contains(nj) else { continue }
                        if grid[ni * side + nj] < c { lowest = false }
                    }
                }
                if lowest { found.append((c, Point(x: minX + Double(i) * stepX, y: minY + Double(j) * stepY, z: z))) }
            }
        }
        return found.sorted { ($0.cost, $0.point.x, $0.point.y) < ($1.cost, $1.point.x, $1.point.y) }.prefix(gridStarts).map(\.point)
    }

    /// The normal equations at `p`: JᵀWJ (symmetric 2×2 as a, b, c) and JᵀWr, over x and y
    /// (the receiver's height is known).
    static func normalEquations(_ p: Point, _ ranges: [RangeMeasurement]) -> (a: Double, b: Double, c: Double, gx: Double, gy: Double) {
        var a = 0.0, b = 0.0, c = 0.0, gx = 0.0, gy = 0.0
        for r in ranges {
            let dx = p.x - r.anchor.x, dy = p.y - r.anchor.y, dz = p.z - r.anchor.z
            let norm = (dx * dx + dy * dy + dz * dz).squareRoot()
            // At an anchor the gradient of |p − a| is undefined; any unit vector keeps the step
            // finite. Right below an anchor it is 0 in the plane (the range cannot get shorter).
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
                let candidate = Point(x: p.x + dx, y: p.y + dy, z: p.z)
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

    /// How much more than the best a second minimum may cost and still fit as well: twice the
    /// best's cost (the misfit the data already has), plus what a 1 dB error in every range
    /// costs (``rangeResolution``: RSSI cannot tell fits apart more finely).
    static func ambiguityTolerance(bestCost: Double, _ ranges: [RangeMeasurement]) -> Double {
        let floor = ranges.reduce(0) { sum, r in
            let e = rangeResolution * max(r.distance, 0.1)
            return sum + r.weight * e * e
        }
        return 2 * bestCost + floor
    }

    /// Residual statistics, the covariance radius and the ambiguity at `p`. `minima` are the
    /// cost's local minima (``localMinima(_:receiverHeight:starts:maximumIterations:)``; found here when
    /// not given): the lowest one away from `p` that fits about as well as `p` or the best
    /// minimum is the alternative.
    static func estimate(at p: Point, _ ranges: [RangeMeasurement], iterations: Int, receiverHeight: Double,
                         minima given: [(point: Point, cost: Double, iterations: Int)]? = nil) -> PositionEstimate {
        let p = Point(x: p.x, y: p.y, z: receiverHeight)
        var sumSquares = 0.0
        for r in ranges {
            let residual = p.distance(to: r.anchor) - r.distance
            sumSquares += residual * residual
        }
        let rms = (sumSquares / Double(ranges.count)).squareRoot()
        let here = cost(p, ranges)
        var radius: Double? = nil
        if ranges.count > 2 {
            let n = normalEquations(p, ranges)
            let det = n.a * n.c - n.b * n.b
            if det > 1e-12 {
                let variance = here / Double(ranges.count - 2)
                // trace((JᵀWJ)⁻¹) = (a + c) / det.
                radius = (variance * (n.a + n.c) / det).squareRoot()
            }
        }
        let minima = given ?? localMinima(ranges, receiverHeight: receiverHeight, starts: [p], maximumIterations: 100)
        let reference = min(here, minima.first?.cost ?? here)
        let tolerance = ambiguityTolerance(bestCost: reference, ranges)
        // Apart from p by more than its own error radius (and 30 cm): a different answer.
        let apart = max(0.3, radius ?? 0)
        let alternative = minima.first { $0.point.distance(to: p) > apart && $0.cost <= reference + tolerance }?.point
        if let alternative {
            // The radius covers both answers: the geometry cannot tell which is true.
            radius = max(radius ?? 0, alternative.distance(to: p))
        }
        return PositionEstimate(position: p, rmsResidual: rms, errorRadius: radius, rangeCount: ranges.count,
                                iterations: iterations, alternative: alternative)
    }
}
