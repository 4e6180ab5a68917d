// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconProfiles
import Foundation
import TestSupport
import Testing

/// A beacon whose payload's measured power changes within a window (as `beacon walk` makes it)
/// is ranged with the window's mean power, like its mean RSSI: the fix describes the window's
/// middle, not its last sample.
@Suite("Windowed locator: measured power averaged")
struct WindowPowerTests {
    @Test("half the window at −50 dBm, half at −40: the range is that of −45")
    func meanPower() throws {
        let fleet = try ProfileLoader.load(contentsOf: PackageRoot.path("profiles/room-2m.yaml"))
        let anchors = BeaconAnchor.anchors(of: fleet)
        var samples: [RSSISample] = []
        for k in 0..<10 {
            for (i, anchor) in anchors.enumerated() {
                let power: Int8 = i == 0 ? (k < 5 ? -50 : -40) : -50
                samples.append(RSSISample(time: Double(k) / 10 + Double(i) / 100, key: anchor.key, rssi: -50, measuredPower: power))
            }
        }
        let fixes = WindowedLocator.fixes(samples, anchors: anchors, window: 1)
        let fix = try #require(fixes.first)
        let west = try #require(fix.ranges.first { $0.name == anchors[0].name })
        #expect(abs(west.distance - pow(10, 5.0 / 20)) < 1e-9, "\(west.distance)")
        let north = try #require(fix.ranges.first { $0.name == anchors[1].name })
        #expect(abs(north.distance - 1) < 1e-9)
    }
}
