// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconScanner
import Testing

@Suite("proximity")
struct ProximityTests {
    @Test("default thresholds: immediate < 0.5 m, near < 3 m, else far")
    func defaults() {
        let t = ProximityThresholds.standard
        #expect(t.proximity(forDistance: 0) == .immediate)
        #expect(t.proximity(forDistance: 0.49) == .immediate)
        #expect(t.proximity(forDistance: 0.5) == .near)
        #expect(t.proximity(forDistance: 2.99) == .near)
        #expect(t.proximity(forDistance: 3) == .far)
        #expect(t.proximity(forDistance: 40) == .far)
        #expect(t.proximity(forDistance: nil) == .unknown)
        #expect(t.proximity(forDistance: .infinity) == .unknown)
        #expect(t.proximity(forDistance: -1) == .unknown)
    }

    @Test("configurable thresholds")
    func custom() {
        let t = ProximityThresholds(immediate: 1, near: 5)
        #expect(t.proximity(forDistance: 0.9) == .immediate)
        #expect(t.proximity(forDistance: 4) == .near)
        #expect(t.proximity(forDistance: 5) == .far)
    }
}
