// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconScanner
import Testing

@Suite("distance models")
struct DistanceModelTests {
    // Values worked out by hand / with Python from the formulas in docs/RANGING.md.
    @Test("AltBeacon curve fit", arguments: [
        (-59.0, Int8(-59), 1.01076),
        (-69.0, Int8(-59), 3.1195010223991475),
        (-80.0, Int8(-59), 9.521557509550805),
        (-50.0, Int8(-59), 0.19106446691360568),
        (-65.0, Int8(-65), 1.01076),
    ])
    func altBeacon(rssi: Double, power: Int8, metres: Double) throws {
        let d = try #require(DistanceModel.altBeacon.distance(rssi: rssi, measuredPower: power))
        #expect(abs(d - metres) < 1e-9, "\(rssi) dBm at \(power) dBm: \(d)")
    }

    @Test("log-distance path loss", arguments: [
        (-59.0, Int8(-59), 2.0, 1.0),
        (-79.0, Int8(-59), 2.0, 10.0),
        (-89.0, Int8(-59), 3.0, 10.0),
        (-53.0, Int8(-59), 2.0, 0.5011872336272722),
    ])
    func pathLoss(rssi: Double, power: Int8, exponent: Double, metres: Double) throws {
        let d = try #require(DistanceModel.pathLoss(exponent: exponent).distance(rssi: rssi, measuredPower: power))
        #expect(abs(d - metres) < 1e-9, "\(rssi) dBm at \(power) dBm, n \(exponent): \(d)")
    }

    @Test("no estimate without a signal, a calibration or a sane exponent")
    func unknown() {
        #expect(DistanceModel.altBeacon.distance(rssi: 0, measuredPower: -59) == nil)
        #expect(DistanceModel.altBeacon.distance(rssi: -60, measuredPower: 0) == nil)
        #expect(DistanceModel.pathLoss(exponent: 0).distance(rssi: -60, measuredPower: -59) == nil)
        #expect(DistanceModel.pathLoss(exponent: -2).distance(rssi: -60, measuredPower: -59) == nil)
    }

    @Test("both models grow with falling RSSI")
    func monotonic() throws {
        for model in [DistanceModel.altBeacon, .freeSpace, .pathLoss(exponent: 3.5)] {
            var last = 0.0
            for rssi in stride(from: -40.0, through: -100.0, by: -1) {
                let d = try #require(model.distance(rssi: rssi, measuredPower: -59))
                #expect(d > last, "\(model) at \(rssi) dBm")
                last = d
            }
        }
    }
}
