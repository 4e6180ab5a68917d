// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconRadio
import Foundation
import Testing

@Suite struct PositionSolverTests {
    let room = [Point(x: -1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 0), Point(x: 0, y: -1)]

    func exactRanges(to p: Point, anchors: [Point]) -> [RangeMeasurement] {
        anchors.map { .fromRSSI(anchor: $0, distance: $0.distance(to: p)) }
    }

    @Test(arguments: [(0.0, 0.0), (0.3, 0.2), (-0.7, 0.1), (0.9, -0.9), (2.5, 1.5), (-1, 0)])
    func exactRangesGiveThePoint(x: Double, y: Double) throws {
        let truth = Point(x: x, y: y)
        let estimate = try #require(PositionSolver.solve(exactRanges(to: truth, anchors: room)))
        #expect(estimate.position.distance(to: truth) < 1e-6)
        #expect(estimate.rmsResidual < 1e-6)
        #expect(estimate.rangeCount == 4)
    }

    /// The case two-circle intersection cannot solve: one range circle lies inside another
    /// (receiver right next to one beacon), and noisy ranges that make the circles miss.
    @Test func nestedAndDisjointCircles() throws {
        let truth = Point(x: -0.9, y: 0)
        // Circle around (-1,0) of radius 0.1 lies inside the circle around (1,0) of radius 1.9.
        var ranges = exactRanges(to: truth, anchors: room)
        ranges[2].distance *= 0.9  // shrink: the circles no longer touch at all
        let estimate = try #require(PositionSolver.solve(ranges))
        #expect(estimate.position.distance(to: truth) < 0.15)
        #expect(estimate.rmsResidual > 0)
        #expect(estimate.errorRadius != nil)
    }

    @Test func tooFewRanges() throws {
        #expect(PositionSolver.solve([]) == nil)
        #expect(PositionSolver.solve([.fromRSSI(anchor: Point(x: 0, y: 0), distance: 1)]) == nil)
        // Two ranges: an answer, one of the two mirror points, flagged, its radius reaching the other.
        let two = try #require(PositionSolver.solve(exactRanges(to: Point(x: 0, y: 0.5), anchors: [room[0], room[2]])))
        let alternative = try #require(two.alternative)
        #expect(abs(abs(two.position.y) - 0.5) < 1e-6 && abs(alternative.y + two.position.y) < 1e-6, "\(two)")
        #expect(abs((two.errorRadius ?? 0) - 1) < 1e-6)
    }

    @Test func pathLossRoundTrip() {
        let model = PathLossModel(exponent: 2.5)
        for d in [0.2, 1, 3.7, 10] {
            let rssi = model.rssi(distance: d, measuredPower: -59)
            #expect(abs(model.distance(rssi: rssi, measuredPower: -59) - d) < 1e-9)
        }
        // At 1 m the RSSI is the measured power; 10 m is 10·n dB weaker.
        #expect(abs(PathLossModel(exponent: 2).rssi(distance: 1, measuredPower: -59) + 59) < 1e-12)
        #expect(abs(PathLossModel(exponent: 2).rssi(distance: 10, measuredPower: -59) + 79) < 1e-12)
    }
}

/// The solver's answer is its global minimum, whatever the layout: over seeded random layouts,
/// with heights, collinear triples, beacons on one line, and a beacon missing from the window.
@Suite("positioning over random layouts")
struct RandomLayoutTests {
    struct Layout: CustomStringConvertible {
        var anchors: [Point]
        var truth: Point
        var description: String { "anchors \(anchors), truth \(truth)" }
    }

    static func unit(_ random: inout SeededGenerator) -> Double { Double(random.next() >> 11) / Double(1 << 53) }

    /// A 10 m × 6 m room: `count` beacons at random (mounted 0–3 m high), the receiver at a
    /// random point at 0–1.5 m; `collinear` of them on one random line.
    static func layout(seed: UInt64, count: Int, collinear: Int) -> Layout {
        var random = SeededGenerator(seed: seed)
        func point(z: ClosedRange<Double>) -> Point {
            Point(x: -5 + 10 * unit(&random), y: -3 + 6 * unit(&random), z: z.lowerBound + (z.upperBound - z.lowerBound) * unit(&random))
        }
        let a = point(z: 0...0), b = point(z: 0...0)
        var anchors: [Point] = []
        for i in 0..<collinear {
            // Spread along the line through a and b (beyond them too).
            let t = collinear == 1 ? 0 : -0.5 + 2 * Double(i) / Double(collinear - 1)
            anchors.append(Point(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y), z: 3 * unit(&random)))
        }
        while anchors.count < count { anchors.append(point(z: 0...3)) }
        return Layout(anchors: anchors, truth: point(z: 0...1.5))
    }

    static func exactRanges(_ layout: Layout, _ anchors: [Point]? = nil) -> [RangeMeasurement] {
        (anchors ?? layout.anchors).map { .fromRSSI(anchor: $0, distance: $0.distance(to: layout.truth)) }
    }

    /// How far `p` lies from the line through `a` and `b`, in the plane.
    static func offLine(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        return abs(dx * (p.y - a.y) - dy * (p.x - a.x)) / hypot(dx, dy)
    }

    /// Whether the anchors, in the plane, are spread off every line through two of them by at least `margin` metres somewhere.
    static func spread(_ anchors: [Point], margin: Double) -> Bool {
        for i in anchors.indices {
            for j in anchors.indices where j > i && anchors[i].onPlane.distance(to: anchors[j].onPlane) > 0.5 {
                if anchors.allSatisfy({ offLine($0, anchors[i], anchors[j]) < margin }) { return false }
            }
        }
        return true
    }

    @Test("noise-free: every method lands within 0.1 m where the geometry determines the point (300 layouts)")
    func determined() throws {
        var checked = 0
        for seed in UInt64(1)...300 {
            let collinear = [0, 3, 3, 4][Int(seed % 4)]
            let layout = Self.layout(seed: seed, count: 3 + Int(seed % 4), collinear: collinear)
            // A window without one of the beacons (the last), when the rest still determine it.
            let windows = [layout.anchors, Array(layout.anchors.dropLast())].filter { $0.count >= 3 && Self.spread($0, margin: 0.5) }
            for anchors in windows {
                let ranges = Self.exactRanges(layout, anchors)
                for method in PositioningMethod.allCases {
                    let fix = try #require(method.solve(ranges, receiverHeight: layout.truth.z))
                    #expect(fix.position.distance(to: layout.truth) < 0.1, "\(method): \(fix.position) for \(layout) (window of \(anchors.count))")
                    #expect(fix.position.z == layout.truth.z)
                    if let alternative = fix.alternative {
                        #expect((fix.errorRadius ?? 0) >= fix.position.distance(to: alternative) - 1e-9)
                    }
                }
                checked += 1
            }
        }
        #expect(checked > 300, "\(checked) windows")
    }

    @Test("beacons all on one line (as in a window whose only off-line beacon is missing): the mirror ambiguity is flagged, the truth is one of the two answers")
    func undetermined() throws {
        for seed in UInt64(1)...150 {
            let count = 2 + Int(seed % 4)
            let layout = Self.layout(seed: seed, count: count, collinear: count)
            // Not on the line itself (there the mirror image is the point) nor right by it.
            guard Self.offLine(layout.truth, layout.anchors[0], layout.anchors[1]) > 0.5 else { continue }
            let ranges = Self.exactRanges(layout)
            for method in PositioningMethod.allCases {
                let fix = try #require(method.solve(ranges, receiverHeight: layout.truth.z))
                let alternative = try #require(fix.alternative, "\(method): no ambiguity for \(layout): \(fix)")
                let nearer = min(fix.position.distance(to: layout.truth), alternative.distance(to: layout.truth))
                #expect(nearer < 0.1, "\(method): \(fix.position) or \(alternative) for \(layout)")
                #expect((fix.errorRadius ?? 0) >= fix.position.distance(to: alternative) - 1e-9)
            }
        }
    }

    /// The lowest cost on a 5 cm grid over the room and around it: an independent bound on the minimum.
    static func gridMinimum(_ ranges: [RangeMeasurement], height: Double) -> Double {
        var best = Double.infinity
        for i in 0...320 {
            for j in 0...240 {
                best = min(best, PositionSolver.cost(Point(x: -8 + Double(i) * 0.05, y: -6 + Double(j) * 0.05, z: height), ranges))
            }
        }
        return best
    }

    @Test("whole-dB RSSI (the issue's layout, and random ones): wls's answer costs no more than any point of a 5 cm grid, nor than ls's answer")
    func globalMinimumOfItsOwnCost() throws {
        // Issue 34's room: three AltBeacons on one diagonal and an Eddystone at the centre.
        let issue = [(Point(x: -2.4, y: -1.4), -62.0), (Point(x: 2.4, y: 1.4), -58), (Point(x: 2.4, y: -1.2), -66), (Point(x: 0, y: 0), -61)]
        var cases: [[(Point, Double)]] = [issue]
        for seed in UInt64(1)...12 { cases.append(Self.layout(seed: seed, count: 4, collinear: 3).anchors.map { ($0, -59) }) }
        let model = PathLossModel()
        var truths: [Point] = []
        for x in stride(from: -2.2, through: 2.2, by: 1.1) { for y in stride(from: -1.3, through: 1.3, by: 0.65) { truths.append(Point(x: x, y: y)) } }
        for anchors in cases {
            for truth in truths.prefix(anchors.count == 4 && anchors[0].1 == -62 ? 25 : 6) {
                let ranges = anchors.map { anchor, power in
                    let rssi = model.rssi(distance: anchor.distance(to: truth), measuredPower: power).rounded()
                    return RangeMeasurement.fromRSSI(anchor: anchor, distance: model.distance(rssi: rssi, measuredPower: power))
                }
                let wls = try #require(PositioningMethod.weightedLeastSquares.solve(ranges))
                let ls = try #require(PositioningMethod.leastSquares.solve(ranges))
                let cost = PositionSolver.cost(wls.position, ranges)
                #expect(cost <= Self.gridMinimum(ranges, height: 0) + 1e-9, "at \(truth): \(wls)")
                #expect(cost <= PositionSolver.cost(ls.position, ranges) + 1e-12, "at \(truth): wls \(wls.position), ls \(ls.position)")
                if anchors[0].1 == -62 {
                    // The layout the issue reported 20 fixes more than 0.5 m off on.
                    #expect(wls.position.distance(to: truth) < 0.5 || wls.isAmbiguous, "at \(truth): \(wls)")
                }
            }
        }
    }

    @Test("the issue's case: exact RSSI at (-1.5, 0.8) gives the point, not its mirror image")
    func issueCase() throws {
        let anchors = [(Point(x: -2.4, y: -1.4), -62.0), (Point(x: 2.4, y: 1.4), -58), (Point(x: 2.4, y: -1.2), -66), (Point(x: 0, y: 0), -61)]
        let truth = Point(x: -1.5, y: 0.8)
        let model = PathLossModel()
        let ranges = anchors.map { anchor, power in
            let rssi = model.rssi(distance: anchor.distance(to: truth), measuredPower: power).rounded()
            return RangeMeasurement.fromRSSI(anchor: anchor, distance: model.distance(rssi: rssi, measuredPower: power))
        }
        for method in PositioningMethod.allCases {
            let fix = try #require(method.solve(ranges))
            #expect(fix.position.distance(to: truth) < 0.3, "\(method): \(fix)")
        }
    }
}
