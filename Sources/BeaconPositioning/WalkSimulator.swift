// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import BeaconRadio

/// Simulates a receiver walking a path through a fleet: every beacon advertises every
/// `advertisingInterval` seconds (each with its own phase), and each advertisement is heard with
/// the path-loss model's RSSI for the true distance plus Gaussian noise of `noise` dB (seeded).
public struct WalkSimulator: Sendable {
    public var anchors: [BeaconAnchor]
    public var path: WalkPath
    public var model: PathLossModel
    /// Standard deviation of the RSSI noise, dB.
    public var noise: Double
    /// Metres per second.
    public var speed: Double
    public var advertisingInterval: Double
    /// How many times the path is walked (a path that ends where it starts loops smoothly).
    public var laps: Int
    public var seed: UInt64
    /// The receiver's height, metres: the walk is on the plane z = this, and the RSSI comes from
    /// the slant distance to each beacon at its own height, as on the virtual air.
    public var receiverHeight: Double

    public init(anchors: [BeaconAnchor], path: WalkPath, model: PathLossModel = PathLossModel(), noise: Double,
                speed: Double = 0.25, advertisingInterval: Double = 0.1, laps: Int = 1, seed: UInt64 = 1,
                receiverHeight: Double = 0) {
        self.receiverHeight = receiverHeight
        self.anchors = anchors
        self.path = path
        self.model = model
        self.noise = noise
        self.speed = speed
        self.advertisingInterval = advertisingInterval
        self.laps = laps
        self.seed = seed
    }

    /// The walk's length in seconds (a single-point path is "walked" for 20 s per lap).
    public var duration: Double {
        let length = path.length
        return Double(max(1, laps)) * (length > 0 ? length / speed : 20)
    }

    /// Where the receiver truly is at `time` (at ``receiverHeight``).
    public func truth(at time: Double) -> Point {
        let length = path.length
        let point: Point
        if length > 0 {
            let travelled = min(max(0, time), duration) * speed
            let lapDistance = travelled.truncatingRemainder(dividingBy: length)
            point = travelled >= length * Double(max(1, laps)) ? path.point(atDistance: length) : path.point(atDistance: lapDistance)
        } else {
            point = path.waypoints[0]
        }
        return Point(x: point.x, y: point.y, z: receiverHeight)
    }

    /// Every advertisement heard, in time order.
    public func samples() -> [RSSISample] {
        var random = SeededGenerator(seed: seed)
        var out: [RSSISample] = []
        forEachInterval(&random) { batch, random in
            let heard = batch.map { t, i in
                let anchor = anchors[i]
                let d = truth(at: t).distance(to: anchor.position)
                let rssi = model.rssi(distance: d, measuredPower: Double(anchor.measuredPower)) + noise * random.nextGaussian()
                return RSSISample(time: t, key: anchor.key, rssi: rssi.rounded(), measuredPower: anchor.measuredPower)
            }
            out += heard.sorted { $0.time < $1.time }
        }
        return out
    }

    /// When each advertisement goes out and whose (an index into ``anchors``), in time order:
    /// the timing of ``samples()`` without its RSSI (and without drawing its noise), for a
    /// caller that hears the walk through a channel of its own.
    public func schedule() -> [(time: Double, anchor: Int)] {
        var random = SeededGenerator(seed: seed)
        var out: [(time: Double, anchor: Int)] = []
        forEachInterval(&random) { batch, _ in out += batch.sorted { $0.time < $1.time } }
        return out
    }

    /// Each advertising interval's advertisements before the walk ends, (time, anchor index)
    /// in anchor order; each beacon's first at its own random phase within one interval (the
    /// first draws of `random`, which `body` goes on drawing from).
    private func forEachInterval(_ random: inout SeededGenerator, _ body: ([(time: Double, anchor: Int)], inout SeededGenerator) -> Void) {
        let end = duration
        let phases = anchors.map { _ in Double(random.next() >> 11) / Double(1 << 53) * advertisingInterval }
        var tick = 0
        while true {
            let base = Double(tick) * advertisingInterval
            if base >= end { break }
            var batch: [(time: Double, anchor: Int)] = []
            for i in anchors.indices {
                let t = base + phases[i]
                guard t < end else { continue }
                batch.append((t, i))
            }
            body(batch, &random)
            tick += 1
        }
    }
}

/// How far fixes are from the truth.
public struct LocationErrorSummary: Hashable, Sendable {
    public var fixes: Int
    public var mean: Double
    public var median: Double
    public var p90: Double
    public var maximum: Double

    /// Errors of `fixes` against `truth` at each fix's window middle.
    public init?(fixes: [PositionFix], truth: (Double) -> Point) {
        self.init(errors: fixes.map { $0.estimate.position.distance(to: truth($0.time)) })
    }

    /// The summary of position errors in metres (any order); `nil` without any.
    public init?(errors unsorted: [Double]) {
        let errors = unsorted.sorted()
        guard !errors.isEmpty else { return nil }
        self.fixes = errors.count
        mean = errors.reduce(0, +) / Double(errors.count)
        median = Self.quantile(errors, 0.5)
        p90 = Self.quantile(errors, 0.9)
        maximum = errors[errors.count - 1]
    }

    /// The error below which the share `fraction` (0 to 1) of the fixes lies: the element at
    /// ⌊n · fraction⌋ of the ascending, non-empty `sorted` (the last for 1). The median and the
    /// 90th percentile are this at ½ and 0.9; ErrorCDFChart (BeaconMaps) draws it.
    public static func quantile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.down))))]
    }
}
