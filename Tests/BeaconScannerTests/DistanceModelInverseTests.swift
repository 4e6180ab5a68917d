// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconScanner
import Foundation
import Testing

/// ``DistanceModel/measuredPower(forDistance:rssi:)``: the inverse `beacon walk` uses.
@Suite("Distance model inverse")
struct DistanceModelInverseTests {
    @Test("the measured power inverts the distance model to within half a dB", arguments: [DistanceModel.freeSpace, .pathLoss(exponent: 3), .altBeacon])
    func inverse(model: DistanceModel) {
        for rssi in [-40.0, -50, -65] {
            for d in stride(from: 0.2, through: 8, by: 0.1) {
                guard let power = model.measuredPower(forDistance: d, rssi: rssi) else {
                    Issue.record("no power for \(d) m at \(rssi)")
                    continue
                }
                let estimate = model.distance(rssi: rssi, measuredPower: power)!
                // One dB either side must not be closer (on a log scale).
                for neighbour in [Int(power) - 1, Int(power) + 1] where DistanceModel.measuredPowerRange.contains(Int8(clamping: neighbour)) {
                    guard let other = model.distance(rssi: rssi, measuredPower: Int8(neighbour)) else { continue }
                    #expect(abs(log(estimate / d)) <= abs(log(other / d)) + 1e-12, "\(model) \(d) m at \(rssi): \(power) vs \(neighbour)")
                }
            }
        }
        #expect(DistanceModel.freeSpace.measuredPower(forDistance: 1, rssi: -50) == -50, "at 1 m the measured power is the RSSI")
        #expect(DistanceModel.freeSpace.measuredPower(forDistance: 10, rssi: -50) == -30)
        #expect(DistanceModel.freeSpace.measuredPower(forDistance: 0, rssi: -50) == nil)
    }
}
