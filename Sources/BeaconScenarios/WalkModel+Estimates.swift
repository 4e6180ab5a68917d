// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning

extension WalkModel {
    /// Where a receiver using the walk's distance model would put the walker, at points of the
    /// route: from each positioned beacon's estimated distance (``WalkModel/Setting/estimatedDistance``:
    /// the distance the sent measured power stands for, quantised to a whole dBm) solved by
    /// weighted least squares. `count` points evenly over `duration` seconds (from 0, the end
    /// included); a point with fewer than three positioned beacons is left out.
    public func estimates(over duration: Double, count: Int) -> [(truth: PlanePoint, estimate: PlanePoint)] {
        guard count > 0, duration.isFinite, duration >= 0 else { return [] }
        let anchors = positioned.compactMap { $0.position.map { PlanePoint(x: $0.x, y: $0.y) } }
        guard anchors.count >= 3 else { return [] }
        return (0..<count).compactMap { index in
            let time = count == 1 ? 0 : duration * Double(index) / Double(count - 1)
            let walker = route.position(at: time)
            let ranges = anchors.map { RangeMeasurement.fromRSSI(anchor: $0, distance: setting(forDistance: walker.distance(to: $0)).estimatedDistance) }
            return PositioningMethod.weightedLeastSquares.solve(ranges).map { (walker, $0.position) }
        }
    }
}
