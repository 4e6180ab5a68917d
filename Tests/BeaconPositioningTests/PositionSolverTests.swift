// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconRadio
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

    @Test func tooFewRanges() {
        #expect(PositionSolver.solve([]) == nil)
        #expect(PositionSolver.solve([.fromRSSI(anchor: Point(x: 0, y: 0), distance: 1)]) == nil)
        // Two ranges: an answer (one of the two mirror points) but no covariance.
        let two = PositionSolver.solve(exactRanges(to: Point(x: 0, y: 0.5), anchors: [room[0], room[2]]))
        #expect(two != nil)
        #expect(two?.errorRadius == nil)
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
