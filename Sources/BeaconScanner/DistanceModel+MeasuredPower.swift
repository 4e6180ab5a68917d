// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

extension DistanceModel {
    /// The measured powers a payload may carry for ``measuredPower(forDistance:rssi:)``: −127 to
    /// −1 dBm (0 means "unknown" to receivers, and a positive RSSI at 1 m does not occur).
    public static let measuredPowerRange: ClosedRange<Int8> = -127 ... -1

    /// The measured power that makes this model estimate `distance` metres from `rssi`: the
    /// inverse of ``distance(rssi:measuredPower:)``, solved over every allowed value (so it
    /// holds for any model, the curve fit included) and picked to be nearest on a log scale
    /// (an error of 10 % reads the same at 0.5 m and at 5 m). Nil when no value gives a distance
    /// (an RSSI of 0, a distance that is not positive).
    public func measuredPower(forDistance distance: Double, rssi: Double) -> Int8? {
        guard distance > 0, distance.isFinite else { return nil }
        let target = log(distance)
        var best: (power: Int8, error: Double)?
        for power in Self.measuredPowerRange {
            guard let d = self.distance(rssi: rssi, measuredPower: power), d > 0, d.isFinite else { continue }
            let error = abs(log(d) - target)
            if error < best?.error ?? .infinity { best = (power, error) }
        }
        return best?.power
    }
}
