// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconScanner
import Testing

/// The phone profiles against their published definitions (the Android Beacon Library's source)
/// and the documented iOS behaviour, on a scripted clock: no waiting anywhere.
@Suite("phone profiles")
struct PhoneProfileTests {
    typealias F = Fixtures

    @Test("the running average: sorted, n/10 + 1 dropped each side above two samples, mean of the rest")
    func runningAverage() {
        #expect(RunningAverageRSSIFilter.average([]) == nil)
        #expect(RunningAverageRSSIFilter.average([-60]) == -60)
        // Two samples: nothing dropped.
        #expect(RunningAverageRSSIFilter.average([-60, -70]) == -65)
        // Three: start = 3/10 + 1 = 1, end = 3 − 0 − 2 = 1: the middle one only.
        #expect(RunningAverageRSSIFilter.average([-90, -50, -60]) == -60)
        // Nine (any order): sorted −100, −71, −70×5, −69, −40; indices 1…7: (−71 − 350 − 69) / 7 = −70.
        #expect(RunningAverageRSSIFilter.average([-40, -100, -70, -70, -70, -70, -70, -71, -69]) == -70)
        // Ten: −59…−50; start = 2, end = 10 − 1 − 2 = 7: −57…−52, mean −54.5.
        #expect(RunningAverageRSSIFilter.average((50...59).map { Int8(-$0) }) == -54.5)
        // Twenty: −80…−61; start = 3, end = 16: −77…−64, mean −70.5.
        #expect(RunningAverageRSSIFilter.average((61...80).map { Int8(-$0) }) == -70.5)
    }

    @Test("the curve fit: ratio^10 below 1, c1·ratio^c2 + c3 from 1 on, none at RSSI 0")
    func curveFit() throws {
        let nexus5 = DistanceModel.curveFit(.nexus5)
        // ratio 1: 0.42093 + 0.54992.
        #expect(try abs(#require(nexus5.distance(rssi: -59, measuredPower: -59)) - 0.97085) < 1e-12)
        // ratio 70/59 = 1.186441: 0.42093 · 1.186441^6.9476 + 0.54992 = 1.930436.
        #expect(try abs(#require(nexus5.distance(rssi: -70, measuredPower: -59)) - 1.930436) < 1e-6)
        // ratio 50/59 = 0.847458 < 1: 0.847458^10 = 0.191064.
        #expect(try abs(#require(nexus5.distance(rssi: -50, measuredPower: -59)) - 0.191064) < 1e-6)
        // Galaxy S20, ratio 80/59: 4.882103522 · 1.355932^6.98084248 − 0.6644164184 = 40.237105.
        #expect(try abs(#require(DistanceModel.curveFit(.galaxyS20).distance(rssi: -80, measuredPower: -59)) - 40.237105) < 1e-5)
        // The 2014 fit altbeacon has always used, ratio 77/59: 0.89976 · 1.305085^7.7095 + 0.111 = 7.119795.
        #expect(try abs(#require(DistanceModel.altBeacon.distance(rssi: -77, measuredPower: -59)) - 7.119795) < 1e-6)
        #expect(nexus5.distance(rssi: 0, measuredPower: -59) == nil)
    }

    /// Cases computed outside this code base (a few lines of Python following the library's
    /// `RunningAverageRssiFilter.calculateRssi` and `CurveFittedDistanceCalculator.calculateDistance`
    /// line by line, random samples from a fixed seed): sizes at every trimming boundary (2/3,
    /// 9/10/11, 19/20/21, 29/30/31), and curve ratios below, at and just above 1.
    @Test("the running average and every named curve against values computed from the library's source")
    func androidComputedCases() throws {
        let filterCases: [([Int8], Double)] = [
            ([-53], -53), ([-42, -88], -65), ([-58, -87, -73], -73), ([-62, -66, -97, -92], -79),
            ([-51, -40, -52, -70, -98, -54, -57, -61, -68], -59),
            ([-90, -60, -73, -85, -53, -74, -55, -46, -88, -50], -66.66666666666667),
            ([-56, -46, -99, -58, -40, -46, -86, -91, -92, -87, -62], -69.42857142857143),
            ([-70, -47, -52, -76, -77, -85, -48, -63, -99, -99, -53, -82, -46, -66, -66, -93, -68, -98, -59], -70.4),
            ([-100, -71, -62, -58, -65, -80, -48, -80, -46, -58, -73, -73, -46, -56, -88, -97, -44, -40, -84, -88], -67.28571428571429),
            ([-40, -61, -76, -45, -73, -62, -67, -91, -97, -94, -96, -92, -66, -65, -55, -51, -98, -97, -74, -87, -77], -75.73333333333333),
            ([-62, -51, -42, -95, -46, -66, -80, -94, -74, -50, -98, -40, -74, -55, -71, -63, -96, -98, -78, -94, -57, -85], -71.8125),
            ([-50, -95, -92, -57, -83, -78, -44, -42, -49, -52, -62, -51, -42, -57, -56, -73, -78, -67, -70, -62, -76, -55, -98, -98,
              -91, -64, -100, -67, -93], -68.6086956521739),
            ([-61, -40, -48, -56, -70, -98, -63, -89, -48, -61, -98, -56, -99, -49, -73, -97, -82, -73, -90, -96, -82, -90, -43, -94,
              -96, -62, -45, -98, -44, -99], -74.27272727272727),
            ([-46, -57, -42, -73, -66, -99, -49, -40, -83, -69, -48, -41, -80, -59, -60, -65, -54, -75, -99, -94, -93, -87, -72, -85,
              -81, -86, -91, -47, -62, -68, -76], -69.26086956521739),
        ]
        for (samples, expected) in filterCases {
            let average = try #require(RunningAverageRSSIFilter.average(samples))
            #expect(abs(average - expected) < 1e-9, "\(samples.count) samples: \(average), the library gives \(expected)")
        }
        // (power, rssi) → metres per curve; ratios 0.68, 0.99, 1, 1.008, 1.275, 1.385, 1.538.
        let inputs: [(Int8, Double)] = [(-59, -40), (-59, -58.5), (-59, -59), (-59, -59.5), (-59, -75.25), (-65, -90), (-65, -100)]
        let curves: [(CurveFitCoefficients, [Double])] = [
            (.nexus5, [0.02051539092, 0.9184141037, 0.97085, 0.9962668913, 2.831601559, 4.587380638, 8.944771976]),
            (.motoXPro, [0.02051539092, 0.9184141037, 0.9401940951, 0.9904456127, 4.218088913, 7.002155592, 13.41404629]),
            (.galaxyS20, [0.02051539092, 0.9184141037, 4.217687104, 4.513934185, 26.0142646, 46.67288951, 98.10656556]),
            (.p30Pro, [0.02051539092, 0.9184141037, 3.871896941, 4.139890404, 24.19032154, 43.96624126, 94.15536784]),
            (.galaxyA71, [0.02051539092, 0.9184141037, 2.985426068, 3.200331184, 19.62667869, 36.12633162, 78.56726525]),
            (.p30Lite, [0.02051539092, 0.9184141037, 5.554012082, 5.837799307, 24.52288891, 41.00319932, 79.56802354]),
            (.galaxyA20e, [0.02051539092, 0.9184141037, 7.394971252, 7.937560142, 49.03577002, 89.9999494, 194.7708913]),
            (.galaxyA5, [0.02051539092, 0.9184141037, 0.7797624923, 0.9075848364, 12.61790142, 26.2741554, 65.57017337]),
        ]
        #expect(Set(curves.map(\.0)) == Set(CurveFitCoefficients.named.map(\.coefficients)), "every selectable curve checked")
        for (curve, expected) in curves {
            for ((power, rssi), metres) in zip(inputs, expected) {
                let d = try #require(DistanceModel.curveFit(curve).distance(rssi: rssi, measuredPower: power))
                #expect(abs(d - metres) < 1e-9 * max(1, metres), "\(curve.device) at \(rssi) dBm / \(power): \(d), the library gives \(metres)")
            }
            #expect(DistanceModel.curveFit(curve).distance(rssi: 0, measuredPower: -59) == nil, "RSSI 0: the library's −1")
        }
    }

    @Test("android: 1.1 s cycles, the running average as RSSI, the curve on it, listed in cycles with a report, exit after 10 s")
    func android() throws {
        let phone = PhoneScanning(.android)
        #expect(phone.updateInterval == .milliseconds(1100))
        #expect(phone.exitAfter == .seconds(10))
        var ranger = BeaconRanger(configuration: phone.ranging)
        ranger.record(F.sighting(1, 1, rssi: -90, at: 0.1))
        ranger.record(F.sighting(1, 1, rssi: -70, at: 0.5))
        ranger.record(F.sighting(1, 1, rssi: -50, at: 0.9))
        let first = try #require(ranger.update(at: FakeClock.t(1.1)).first)
        #expect(first.rssi == -70, "three samples: the middle one")
        #expect(try abs(#require(first.accuracy) - 1.930436) < 1e-6)
        // RangeState's tracking cache is off by default: a cycle without a report lists nothing…
        #expect(ranger.update(at: FakeClock.t(2.2)).isEmpty, "a cycle without a report: not listed")
        // …but the filter keeps the samples: sorted −90, −70, −60, −50, indices 1…2: −65.
        ranger.record(F.sighting(1, 1, rssi: -60, at: 2.5))
        #expect(ranger.update(at: FakeClock.t(3.3)).first?.rssi == -65, "the earlier samples still count")
        #expect(ranger.update(at: FakeClock.t(3.5)).first?.rssi == -65, "listed while its report is within the cycle")
        #expect(ranger.update(at: FakeClock.t(3.6)).isEmpty, "1.1 s after the report: not listed")
        // Heard again after more than 20 s: only the new sample.
        ranger.record(F.sighting(1, 1, rssi: -80, at: 23.0))
        #expect(ranger.update(at: FakeClock.t(23.1)).first?.rssi == -80, "the samples of 0.1–2.5 s have expired")
        // Twenty seconds of history: a sample 20 s old no longer counts.
        var long = BeaconRanger(configuration: phone.ranging)
        long.record(F.sighting(1, 1, rssi: -40, at: 0))
        long.record(F.sighting(1, 1, rssi: -60, at: 17))
        long.record(F.sighting(1, 1, rssi: -80, at: 19.9))
        #expect(long.update(at: FakeClock.t(19.9)).first?.rssi == -60)
        #expect(long.update(at: FakeClock.t(20)).first?.rssi == -70, "the sample of 0 s is 20 s old: out")

        var monitor = RegionMonitor(regions: [.any], exitAfter: phone.exitAfter)
        _ = monitor.observe(F.identity(1, 1), at: FakeClock.t(0.9))
        #expect(monitor.check(at: FakeClock.t(10.8)).isEmpty)
        #expect(monitor.check(at: FakeClock.t(10.9)).map(\.time) == [FakeClock.t(10.9)])
    }

    @Test("ios: RSSI over the second, accuracy over 20 s while heard, 0 / −1 / unknown when silent, exit after 30 s")
    func ios() throws {
        let phone = PhoneScanning(.ios, model: .freeSpace)
        #expect(phone.updateInterval == .seconds(1))
        #expect(phone.exitAfter == .seconds(30))
        var ranger = BeaconRanger(configuration: phone.ranging)
        ranger.record(F.sighting(1, 1, rssi: -59, at: 0.2))
        ranger.record(F.sighting(1, 1, rssi: -79, at: 0.7))
        var b = try #require(ranger.update(at: FakeClock.t(1.0)).first)
        #expect(b.rssi == -69)
        // Mean −69 over 20 s: 10^(10/20) = 3.162 m.
        #expect(try abs(#require(b.accuracy) - 3.1622777) < 1e-6)
        ranger.record(F.sighting(1, 1, rssi: -99, at: 1.5))
        b = try #require(ranger.update(at: FakeClock.t(2.0)).first)
        #expect(b.rssi == -99, "the second's own mean")
        // The accuracy lags: the mean of −59, −79, −99 is −79: 10 m, not the 100 m of −99.
        #expect(try abs(#require(b.accuracy) - 10) < 1e-9)
        b = try #require(ranger.update(at: FakeClock.t(3.0)).first, "a silent beacon stays listed")
        #expect(b.rssi == nil && b.accuracy == nil && b.proximity == .unknown)
        #expect(ranger.update(at: FakeClock.t(31.4)).count == 1)
        #expect(ranger.update(at: FakeClock.t(31.5)).isEmpty, "30 s silent: gone")

        var monitor = RegionMonitor(regions: [.any], exitAfter: phone.exitAfter)
        _ = monitor.observe(F.identity(1, 1), at: FakeClock.t(1.5))
        #expect(monitor.check(at: FakeClock.t(31.4)).isEmpty)
        #expect(monitor.check(at: FakeClock.t(31.5)).map(\.kind) == [.exit])
        #expect(PhoneScanning(.ios, exitAfter: .seconds(12)).exitAfter == .seconds(12), "the delay is configurable")
    }

    @Test("ios monitors at most 20 regions; the others have no limit")
    func regionLimit() throws {
        let regions = try (0..<21).map { try BeaconRegion(uuid: F.uuid, major: UInt16($0)) }
        #expect(throws: PhoneScanning.TooManyRegions.self) { try PhoneScanning(.ios).check(regions: regions) }
        try PhoneScanning(.ios).check(regions: Array(regions.prefix(20)))
        try PhoneScanning(.android).check(regions: regions)
        try PhoneScanning(.raw).check(regions: regions)
    }

    @Test("raw: what scan always did, a 1 s mean for both RSSI and accuracy")
    func raw() throws {
        var ranger = BeaconRanger(configuration: PhoneScanning(.raw, model: .freeSpace).ranging)
        ranger.record(F.sighting(1, 1, rssi: -59, at: 0.2))
        ranger.record(F.sighting(1, 1, rssi: -79, at: 1.5))
        let b = try #require(ranger.update(at: FakeClock.t(2.0)).first)
        #expect(b.rssi == -79)
        #expect(try abs(#require(b.accuracy) - 10) < 1e-9)
    }
}
