// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// `beacon cycle`: one beacon after another through one advertiser, each for the dwell time.
@Suite struct CycleCommandTests {
    static let threeBeacons = """
        name: three
        defaults:
          uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E
          major: 9
          interval: 100
        beacons:
          - {name: first, minor: 1}
          - {name: second, minor: 2}
          - {name: third, minor: 3}
        """

    /// Checks that the beacons went on air in `order`, one at a time, each about `dwell` seconds.
    static func checkTurns(_ air: [AirLogLine], order: [ExpectedBeacon], dwell: Double, context: String) {
        // Consecutive runs of the same address: one run per beacon, in order.
        var runs: [(address: String, first: Double, last: Double)] = []
        for line in air {
            if runs.last?.address == line.address { runs[runs.count - 1].last = line.time } else { runs.append((line.address, line.time, line.time)) }
        }
        #expect(runs.map(\.address) == order.map(\.address), "\(context)")
        guard runs.count == order.count else { return }
        for beacon in order {
            let lines = air.filter { $0.address == beacon.address }
            #expect(lines.allSatisfy { $0.data == beacon.data && $0.pdu == "ADV_NONCONN_IND" }, "\(beacon.name)")
        }
        // Turn i is due i dwells after the first (the rotation is scheduled from its start), so
        // it never starts earlier; how much later depends on a busy machine, so the upper bound
        // only catches a stalled rotation (speeds are in BENCHMARKS.md).
        for i in 1..<runs.count {
            let offset = runs[i].first - runs[0].first
            #expect(offset >= Double(i) * dwell - 0.05, "turn \(i) started \(offset) s after the first, before its time \(Double(i) * dwell) s\n\(context)")
            #expect(offset < Double(i) * dwell + 5, "turn \(i) started \(offset) s after the first\n\(context)")
            // The previous beacon is off air before the next one's turn starts.
            #expect(runs[i - 1].last <= runs[i].first + 0.01, "\(context)")
        }
    }

    @Test func onceAdvertisesEachBeaconForTheDwellTimeInOrder() throws {
        let path = try BeaconExecutable.temporaryFile(named: "three.yaml", contents: Self.threeBeacons)
        let expected = try ExpectedBeacon.from(path)
        #expect(expected.map(\.name) == ["first", "second", "third"])
        let started = ContinuousClock.now
        let result = try BeaconExecutable.run(["cycle", path, "--dwell", "300ms", "--once", "-i", "virtual", "--air-log", "-"])
        #expect(result.status == 0, "\(result)")
        #expect(ContinuousClock.now - started < .seconds(30)) // a hang detector, not a speed test (speeds are in BENCHMARKS.md)
        Self.checkTurns(AirLogLine.all(result.stdout), order: expected, dwell: 0.3, context: "\(result)")
        // A line when each goes on air, in order.
        let onAir = result.lines.filter { $0.contains(" on air: ") }.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
        #expect(onAir == ["first", "second", "third"], "\(result)")
        #expect(result.stdout.contains("advertising stopped"), "\(result)")
    }

    @Test func onceOnALegacyControllerToo() throws {
        let path = try BeaconExecutable.temporaryFile(named: "three.yaml", contents: Self.threeBeacons)
        let expected = try ExpectedBeacon.from(path)
        let result = try BeaconExecutable.run(["cycle", path, "--dwell", "300ms", "--once", "-i", "virtual:version=4.2", "--air-log", "-"])
        #expect(result.status == 0, "\(result)")
        let air = AirLogLine.all(result.stdout)
        #expect(air.allSatisfy { $0.advertiser == "legacy" }, "\(result)")
        Self.checkTurns(air, order: expected, dwell: 0.3, context: "\(result)")
    }

    @Test func jsonPrintsAnOnAirEventPerTurn() throws {
        let path = try BeaconExecutable.temporaryFile(named: "three.yaml", contents: Self.threeBeacons)
        let result = try BeaconExecutable.run(["cycle", path, "--dwell", "200ms", "--once", "-i", "virtual", "--json", "--air-log", "-"])
        #expect(result.status == 0, "\(result)")
        let events = try result.lines.map(BeaconExecutable.jsonObject)
        let onAir = events.filter { $0["event"] as? String == "on_air" }.compactMap { $0["beacon"] as? String }
        #expect(onAir == ["first", "second", "third"], "\(result)")
        #expect(events.contains { $0["event"] as? String == "air" && $0["pdu"] as? String == "ADV_NONCONN_IND" })
        #expect(events.last?["event"] as? String == "stopped", "\(result)")
    }

    @Test func loopAndOnceExcludeEachOther() throws {
        let result = try BeaconExecutable.run(["cycle", "profiles/room-2m.yaml", "--dwell", "1s", "--loop", "--once"])
        #expect(result.status == 2, "\(result)")
    }
}
