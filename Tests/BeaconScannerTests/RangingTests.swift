// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconScanner
import Testing

@Suite("smoothing and ranging")
struct RangingTests {
    typealias F = Fixtures

    @Test("the window's mean holds exactly the samples of the last second")
    func windowMean() {
        var w = RSSIWindow(length: .seconds(1))
        w.add(-60, at: FakeClock.t(0.0))
        w.add(-70, at: FakeClock.t(0.5))
        w.add(-80, at: FakeClock.t(0.9))
        #expect(w.mean(at: FakeClock.t(0.9)) == -70)
        #expect(w.count(at: FakeClock.t(0.9)) == 3)
        // At 1.0 s the sample of 0.0 s is exactly one window old: out.
        #expect(w.mean(at: FakeClock.t(1.0)) == -75)
        #expect(w.rate(at: FakeClock.t(1.0)) == 2)
        #expect(w.mean(at: FakeClock.t(1.6)) == -80)
        #expect(w.mean(at: FakeClock.t(1.9)) == nil)
        w.add(-50, at: FakeClock.t(2.0))
        #expect(w.samples.map(\.rssi) == [-50], "old samples are dropped as new ones come")
    }

    @Test("out-of-order samples are dropped, not averaged into the past")
    func outOfOrder() {
        var w = RSSIWindow()
        w.add(-60, at: FakeClock.t(1.0))
        w.add(-90, at: FakeClock.t(0.8))
        #expect(w.samples.map(\.rssi) == [-60])
    }

    @Test("a ranging update: smoothed RSSI, accuracy, proximity, last seen, rate; nearest first")
    func update() throws {
        var r = BeaconRanger(configuration: RangingConfiguration(model: .freeSpace))
        // Beacon 1/1: -79, -79 → 10 m, far. Beacon 1/2: -53, -65 → mean -59 → 1 m, near.
        // Beacon 1/3: -50 → 0.35 m, immediate.
        r.record(F.sighting(1, 1, rssi: -79, at: 0.2))
        r.record(F.sighting(1, 2, rssi: -53, at: 0.3))
        r.record(F.sighting(1, 1, rssi: -79, at: 0.6))
        r.record(F.sighting(1, 2, rssi: -65, at: 0.7))
        r.record(F.sighting(1, 3, rssi: -50, at: 0.8))
        let list = r.update(at: FakeClock.t(1.0))
        #expect(list.map(\.identity) == [F.identity(1, 3), F.identity(1, 2), F.identity(1, 1)])
        #expect(list.map(\.proximity) == [.immediate, .near, .far])
        #expect(list.map(\.rssi) == [-50, -59, -79])
        #expect(list.map(\.reportsPerSecond) == [1, 2, 2])
        #expect(list.map(\.lastSeen) == [FakeClock.t(0.8), FakeClock.t(0.7), FakeClock.t(0.6)])
        let near = try #require(list[1].accuracy)
        #expect(abs(near - 1) < 1e-9)
        let far = try #require(list[2].accuracy)
        #expect(abs(far - 10) < 1e-9)
    }

    @Test("no fresh report: unknown, listed last; forgotten after the forget delay")
    func stale() {
        var r = BeaconRanger(configuration: RangingConfiguration(forgetAfter: .seconds(5)))
        r.record(F.sighting(1, 1, rssi: -70, at: 0))
        r.record(F.sighting(1, 2, rssi: -90, at: 2.5))
        let at3 = r.update(at: FakeClock.t(3))
        #expect(at3.map(\.identity) == [F.identity(1, 2), F.identity(1, 1)], "the silent beacon goes last")
        #expect(at3[1].proximity == .unknown)
        #expect(at3[1].rssi == nil && at3[1].accuracy == nil && at3[1].reportsPerSecond == 0)
        #expect(at3[1].lastSeen == FakeClock.t(0))
        #expect(r.update(at: FakeClock.t(5)).map(\.identity) == [F.identity(1, 2)], "1/1 silent for 5 s: gone")
    }

    @Test("a report without RSSI counts as seen but moves no mean; the latest power is shown")
    func noRSSI() {
        var r = BeaconRanger()
        r.record(F.sighting(1, 1, rssi: -60, power: -59, at: 0.1))
        r.record(F.sighting(1, 1, rssi: nil, power: -62, at: 0.5))
        let b = r.update(at: FakeClock.t(0.6))[0]
        #expect(b.rssi == -60)
        #expect(b.measuredPower == -62)
        #expect(b.lastSeen == FakeClock.t(0.5))
        #expect(b.reportsPerSecond == 1)
    }

    @Test("the same identity from a new measured power uses the new calibration")
    func altBeaconAccuracy() throws {
        var r = BeaconRanger()
        r.record(F.sighting(7, 7, rssi: -69, power: -59, at: 0))
        let b = r.update(at: FakeClock.t(0.5))[0]
        let accuracy = try #require(b.accuracy)
        #expect(abs(accuracy - 3.1195010223991475) < 1e-9)
        #expect(b.proximity == .far)
    }
}
