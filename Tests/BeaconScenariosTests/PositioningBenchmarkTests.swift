// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconPositioning
import BeaconProfiles
import BeaconScanner
import BeaconScenarios
import TestSupport
import Testing
import VirtualController
import BeaconRadio

/// The benchmark behind BENCHMARKS.md's positioning table: deterministic, and the channel and
/// the phone change the error the way they must.
@Suite("positioning benchmark")
struct PositioningBenchmarkTests {
    static func room() throws -> [BeaconAnchor] {
        BeaconAnchor.anchors(of: try ProfileLoader.load(contentsOf: PackageRoot.path("profiles/room-2m.yaml")))
    }

    static func median(_ channel: AirChannel, _ phone: PhoneProfile, _ method: PositioningMethod, walks: Int = 10) throws -> LocationErrorSummary {
        let bench = PositioningBenchmark(anchors: try room(), channel: channel, phone: PhoneScanning(phone), method: method)
        return try #require(bench.run(walks: walks, seed: 1))
    }

    @Test("the same seed gives the same errors")
    func deterministic() throws {
        #expect(try Self.median(.office, .android, .weightedLeastSquares) == Self.median(.office, .android, .weightedLeastSquares))
    }

    @Test("clean air and raw reports: under 15 cm (rounding, and 1 m of walking per window); a noisy air costs accuracy; smoothing lags a walker")
    func orderings() throws {
        let clean = try Self.median(.clean, .raw, .weightedLeastSquares)
        #expect(clean.median < 0.15, "clean: \(clean.median) m")
        let station = try Self.median(.station, .raw, .weightedLeastSquares)
        #expect(station.median > 5 * clean.median, "station: \(station.median) m")
        // On a clean air, iOS's 1 s means and Android's 20 s average trail the walker (1 m/s).
        let ios = try Self.median(.clean, .ios, .weightedLeastSquares), android = try Self.median(.clean, .android, .weightedLeastSquares)
        #expect(ios.median > clean.median && android.median > ios.median, "ios \(ios.median) m, android \(android.median) m")
    }
}
