// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconPositioning

extension WalkModel {
    /// Where a receiver using the walk's distance model would put the walker, at points of the
    /// route: from each positioned beacon's estimated distance (``WalkModel/Setting/estimatedDistance``:
    /// the distance the sent measured power stands for, quantised to a whole dBm) solved by
    /// weighted least squares. `count` points evenly over `duration` seconds (from 0, the end
    /// included); a point with fewer than three positioned beacons is left out.
    public func estimates(over duration: Double, count: Int) -> [(truth: Point, estimate: Point)] {
        guard count > 0, duration.isFinite, duration >= 0 else { return [] }
        return (0..<count).compactMap { index in
            let time = count == 1 ? 0 : duration * Double(index) / Double(count - 1)
            return fix(at: time).map { (walker(at: time), $0.estimate.position) }
        }
    }

    /// The fix such a receiver makes when the walker is where it is at `time` seconds: each
    /// positioned beacon ranged at its estimated distance (heard at ``rssiAtPhone``, or lower
    /// with a TX power control), solved by weighted least squares; nil with fewer than three
    /// positioned beacons. The live page draws it (ranging circles, estimate) as the walk goes.
    public func fix(at time: Double) -> PositionFix? {
        let walker = walker(at: time)
        var measurements: [RangeMeasurement] = []
        var ranged: [RangedAnchor] = []
        for beacon in positioned {
            guard let p = beacon.position else { continue }
            let setting = setting(forDistance: walker.distance(to: p))
            measurements.append(RangeMeasurement.fromRSSI(anchor: p, distance: setting.estimatedDistance))
            ranged.append(RangedAnchor(name: beacon.name, meanRSSI: setting.expectedRSSI, samples: 1, distance: setting.estimatedDistance))
        }
        guard measurements.count >= 3, let estimate = PositioningMethod.weightedLeastSquares.solve(measurements, receiverHeight: receiverHeight) else { return nil }
        return PositionFix(windowStart: time, windowEnd: time, estimate: estimate, ranges: ranged)
    }

    /// What a receiver positioning the walker makes of the walk at `time` seconds: the walker's
    /// true position, and ``fix(at:)`` when there is one (the live page of `beacon walk --web`).
    public func positioningEvents(at time: Double) -> [PositioningEvent] {
        [.truePosition(walker(at: time), time: time)] + (fix(at: time).map { [.fix($0)] } ?? [])
    }
}
