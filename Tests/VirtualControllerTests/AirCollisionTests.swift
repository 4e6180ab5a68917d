// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
@testable import VirtualController
import BeaconCodec
import BeaconRadio
import HCI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Collisions on the advertising channels, judged event by event (`AdvertisingCollisions`,
/// BeaconRadio) and measured back from a fleet of advertising sets on a manual clock.
@Suite("virtual air collisions")
struct AirCollisionTests {
    typealias Collisions = AdvertisingCollisions<String>
    /// An iBeacon's PDU: 16 + 30 octets at 1 Mb/s.
    static let tau = AirChannel.airtime(dataLength: 30)

    /// Judges events given as (name, start, power), all audible, and returns the names heard.
    static func heard(_ events: [(String, Double, Double)]) -> Set<String> {
        var collisions = Collisions()
        for (name, start, power) in events { collisions.add(name, start: start, airtime: tau, power: power, audible: true) }
        return Set(collisions.settleAll().filter { !$0.collided }.map(\.packet))
    }

    @Test("the rule: overlapping PDUs of equal power both go; 21 dB apart the stronger stays; apart in time both stay")
    func rule() {
        #expect(Self.tau == 368e-6)
        #expect(Self.heard([("a", 1.0, -60), ("b", 1.0 + 0.9 * Self.tau, -60)]).isEmpty)
        #expect(Self.heard([("a", 1.0, -60), ("b", 1.0 + 1.01 * Self.tau, -60)]) == ["a", "b"])
        #expect(Self.heard([("a", 1.0, -60), ("b", 1.0002, -81)]) == ["a"], "a is 21 dB stronger: captured")
        #expect(Self.heard([("a", 1.0, -60), ("b", 1.0002, -80)]).isEmpty, "20 dB is under the capture margin")
        // Each event's PDUs go on 37, 38, 39 in turn, one airtime and one hop apart.
        let pdu39 = Collisions.pdu(on: 39, start: 2, airtime: Self.tau)
        #expect(abs(pdu39.lowerBound - (2 + 2 * (Self.tau + Collisions.hop))) < 1e-9 && abs(pdu39.upperBound - pdu39.lowerBound - Self.tau) < 1e-9)
        // The receiver moves channel every 60 ms.
        #expect([0.0, 0.061, 0.121, 0.181].map(Collisions.listeningChannel(at:)) == [37, 38, 39, 37])
        // A third event far away is judged on its own; a late event is judged against those kept.
        var collisions = Collisions()
        collisions.add("a", start: 5, airtime: Self.tau, power: -60, audible: true)
        #expect(collisions.settle(before: 5.001).isEmpty, "a could still be hit by an event starting before 5.001 + its length")
        #expect(collisions.settle(before: 5.1).map(\.collided) == [false])
        collisions.add("b", start: 5.0001, airtime: Self.tau, power: -60, audible: true)
        #expect(collisions.settle(before: 5.2).map(\.collided) == [true], "b came late: still judged against a")
        // An inaudible event (below sensitivity) is not reported but still interferes.
        var quiet = Collisions()
        quiet.add("loud", start: 1, airtime: Self.tau, power: -90, audible: true)
        quiet.add("faint", start: 1.0001, airtime: Self.tau, power: -97, audible: false)
        #expect(quiet.settleAll().map(\.collided) == [true])
    }

    /// A fleet of `count` legacy non-connectable sets on one controller with advDelay, each
    /// enabled at its own seeded moment within the first interval, heard for `seconds` through
    /// `channel`; `strong`: sets heard from 0.1 m (+20 dB), the others from 10 m (−20 dB).
    static func fleet(count: Int, interval: AdvertisingInterval, seconds: Int, channel: AirChannel, strong: Set<UInt8> = [],
                      seed: UInt64 = 3) -> (taken: Int, lost: [AirLoss: Int], heard: [BluetoothAddress: Int], sent: [BluetoothAddress: Int]) {
        var configuration = VirtualController.Configuration()
        configuration.advertisingDelay = true
        configuration.seed = seed
        let bench = Bench(configuration)
        var random = SplitMix64(seed: seed)
        let period = Duration.microseconds(625 * Int64(interval.rawValue))
        let address = { (handle: UInt8) in BluetoothAddress(0xC0_11_22_33_44_00 + UInt64(handle)) }
        for handle in UInt8(1)...UInt8(count) {
            bench.succeed(nonConnectableSet(handle, interval: interval), LESetAdvertisingSetRandomAddress(handle: handle, address: address(handle)),
                          LESetExtendedAdvertisingData(handle: handle, data: beaconData(minor: handle)))
        }
        // Enabled one by one at uniform moments of one interval, so phases start spread (as a real fleet's are).
        let moments = (0..<count).map { _ in Duration.microseconds(Int64(random.next() % UInt64(period / .microseconds(1)))) }.sorted()
        var elapsed = Duration.zero
        for (i, moment) in moments.enumerated() {
            bench.advance(moment - elapsed)
            elapsed = moment
            bench.succeed(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: UInt8(i + 1))]))
        }
        let near = Point(x: 0.1, y: 0), far = Point(x: 10, y: 0)
        let strongAddresses = Set(strong.map(address))
        var reception = AirReception(channel: channel)
        var heard: [BluetoothAddress: Int] = [:], sent: [BluetoothAddress: Int] = [:]
        var next: UInt64 = 0
        func record(_ reports: [(AirTransmission, Int8)]) { for (t, _) in reports { heard[t.address, default: 0] += 1 } }
        for _ in 0..<seconds {
            bench.advance(.seconds(1))
            let entries = bench.controller.airLog(since: next)
            if let last = entries.last { next = last.sequence + 1 }
            for entry in entries {
                sent[entry.address, default: 0] += 1
                let t = AirTransmission(entry, position: strongAddresses.contains(entry.address) ? near : far)
                record(reception.take(t, at: Point(x: 0, y: 0)))
            }
            record(reception.settle(before: bench.clock.now))
        }
        record(reception.settleAll())
        return (reception.taken, reception.lost, heard, sent)
    }

    /// The expected share of events lost to collisions, derived for this model: N advertisers at
    /// interval T with advDelay uniform in 0–10 ms have a mean period T̄ = T + 5 ms; the random
    /// delays make each pair's relative phase wander uniformly over T̄, so another advertiser's
    /// PDU on the listened channel overlaps a given one (same length τ) with probability 2τ/T̄,
    /// independently for each: an event survives with (1 − 2τ/T̄)^(N−1) (unslotted ALOHA,
    /// Abramson 1970; ≈ e^(−2λτ) with λ = (N−1)/T̄ events a second).
    static func expectedLoss(count: Int, interval: Double) -> Double {
        1 - pow(1 - 2 * tau / (interval + 0.005), Double(count - 1))
    }

    /// The bound: 5 standard errors of a binomial share, doubled in variance because a collision
    /// takes events in pairs (the count of lost events is not a sum of independent trials).
    static func bound(_ p: Double, samples n: Int) -> Double { 5 * (2 * p * (1 - p) / Double(n)).squareRoot() }

    @Test("16 beacons at 100 ms and at 20 ms lose the share ALOHA predicts (within 5 SE, 45,000+ events)",
          arguments: [(AdvertisingInterval(0x00A0), 0.100, 300), (AdvertisingInterval(0x0020), 0.020, 80)])
    func fleetLossRate(interval: AdvertisingInterval, seconds: Double, duration: Int) {
        let run = Self.fleet(count: 16, interval: interval, seconds: duration, channel: AirChannel(collisions: true))
        #expect(run.taken >= 45_000)
        #expect(run.lost.keys.allSatisfy { $0 == .collision })
        let measured = Double(run.lost[.collision] ?? 0) / Double(run.taken)
        let expected = Self.expectedLoss(count: 16, interval: seconds)
        // 100 ms: 2τ/T̄ = 0.00701, loss 0.100; 20 ms: 2τ/T̄ = 0.0294, loss 0.361.
        #expect(abs(measured - expected) < Self.bound(expected, samples: run.taken),
                "measured \(measured), expected \(expected) ± \(Self.bound(expected, samples: run.taken))")
        #expect(run.heard.values.reduce(0, +) + (run.lost[.collision] ?? 0) == run.taken)
    }

    @Test("capture: a beacon 40 dB above the rest never loses to them; the rest still collide with it")
    func capture() {
        let run = Self.fleet(count: 16, interval: 0x0020, seconds: 40, channel: AirChannel(collisions: true), strong: [1])
        let strong = BluetoothAddress(0xC0_11_22_33_44_01)
        #expect(run.heard[strong] == run.sent[strong])
        let weakTaken = run.taken - (run.sent[strong] ?? 0)
        let measured = Double(run.lost[.collision] ?? 0) / Double(weakTaken)
        let expected = Self.expectedLoss(count: 16, interval: 0.020)
        #expect(abs(measured - expected) < Self.bound(expected, samples: weakTaken), "measured \(measured), expected \(expected)")
    }

    @Test("seeded and off in clean: the same seeds give the same reports; clean loses nothing")
    func seededAndClean() {
        let a = Self.fleet(count: 8, interval: 0x0020, seconds: 5, channel: AirChannel(collisions: true))
        let b = Self.fleet(count: 8, interval: 0x0020, seconds: 5, channel: AirChannel(collisions: true))
        #expect(a.heard == b.heard && a.lost == b.lost)
        #expect((a.lost[.collision] ?? 0) > 0)
        let clean = Self.fleet(count: 8, interval: 0x0020, seconds: 5, channel: .clean)
        #expect(clean.lost.isEmpty && clean.heard == clean.sent)
        #expect(!AirChannel.clean.collisions && AirChannel.office.collisions && AirChannel.station.collisions)
    }
}
