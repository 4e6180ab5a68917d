// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconPositioning
import BeaconRadio
import Testing

/// Fixes and summaries as `beacon locate` prints them, formatted without the binary.
struct PositionFixTextTests {
    static let fix = PositionFix(windowStart: 0.5, windowEnd: 1.5,
                                 estimate: PositionEstimate(position: Point(x: 0.5234, y: -1.0301), rmsResidual: 0.3149, errorRadius: 0.4,
                                                            rangeCount: 4, iterations: 7),
                                 ranges: [])

    @Test func aFixIsOneLine() {
        #expect(PositionFixText.line(Self.fix) == "t=1.00 s  x=+0.52 y=-1.03 m  ±0.40 m  rms 0.31 m  4 beacons")
        var unknown = Self.fix
        unknown.estimate.errorRadius = nil
        #expect(PositionFixText.line(unknown).contains("  ±? m  "))
        #expect(PositionFixText.line(Self.fix, truth: Point(x: 0.5, y: -1)).hasSuffix("  true (+0.50, -1.00)  error 0.04 m"))
    }

    @Test func aFixIsOneObjectToTheMillimetre() {
        #expect(PositionFixText.json(Self.fix).text == #"{"time":1,"x":0.523,"y":-1.03,"error_radius":0.4,"rms_residual":0.315,"beacons":4}"#)
        let both = PositionFixText.json(Self.fix, truth: Point(x: 0.5, y: -1), wallClockStart: 1_700_000_000.25).text
        #expect(both.hasSuffix(#","beacons":4,"unix_time":1700000001.25,"true_x":0.5,"true_y":-1,"error":0.038}"#), "\(both)")
    }

    @Test("an ambiguous fix says where the other answer is; a receiver above the floor gives its height")
    func ambiguityAndHeight() {
        var fix = Self.fix
        fix.estimate.alternative = Point(x: -0.31, y: 1.2)
        fix.estimate.position.z = 1.2
        #expect(PositionFixText.line(fix) == "t=1.00 s  x=+0.52 y=-1.03 m  ±0.40 m  rms 0.31 m  4 beacons  ambiguous: as good at (-0.31, +1.20)")
        #expect(PositionFixText.json(fix).text == #"{"time":1,"x":0.523,"y":-1.03,"z":1.2,"error_radius":0.4,"rms_residual":0.315,"beacons":4,"alternative":{"x":-0.31,"y":1.2}}"#)
    }

    @Test func theSummaryNamesItsContextFirst() {
        let s = LocationErrorSummary(fixes: [Self.fix], truth: { _ in Point(x: 0.5234, y: -1.0301) })!
        #expect(PositionFixText.summaryLine(s, noise: 4, seed: 1, context: [("air", "office")])
                == "air office, 1 fixes, noise 4.0 dB, seed 1: mean error 0.000 m, median 0.000 m, 90% 0.000 m, max 0.000 m")
        #expect(PositionFixText.summaryJSON(s, noise: 4, seed: 1).text
                == #"{"summary":{"noise_db":4,"seed":1,"fixes":1,"mean_error":0,"median_error":0,"p90_error":0,"max_error":0}}"#)
    }

    @Test func aTraceLineIsASample() throws {
        let line = #"{"time":2.5,"event":"report","format":"ibeacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"power":-59,"rssi":-70}"#
        let sample = RSSISample(try #require(try TraceSample(line: line)))
        #expect(sample.time == 2.5 && sample.rssi == -70 && sample.measuredPower == -59)
    }
}
