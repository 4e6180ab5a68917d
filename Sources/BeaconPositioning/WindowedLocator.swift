// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Turns a time-ordered stream of RSSI samples into position fixes: samples are grouped into
/// consecutive windows (1 s by default, ten advertisements of a 100 ms beacon); in each window
/// every fleet beacon heard gets its mean RSSI (averaging in dB, as ranging does), that gives a
/// distance by the path-loss model, and the ranges go to ``PositionSolver``.
///
/// Samples of beacons that are not in the fleet (or have no position) are ignored.
public struct WindowedLocator: Sendable {
    public let anchors: [BeaconKey: BeaconAnchor]
    public var model: PathLossModel
    /// Seconds per window.
    public var window: Double
    /// Fewest beacons a window needs for a fix (3 settles the mirror ambiguity of 2).
    public var minimumBeacons: Int
    /// How the window's ranges become a fix.
    public var method: PositioningMethod
    /// Only the strongest this many beacons of a window (by mean RSSI) are used; `nil`: all.
    public var maximumBeacons: Int?
    /// The receiver's height in metres (the fixes' z): the ranges are slant ranges to anchors at
    /// their own heights.
    public var receiverHeight: Double

    var windowStart: Double? = nil
    /// Per beacon in the open window: the RSSI sum and count, and the sum and count of the
    /// measured powers the payloads carried. The power is averaged like the RSSI: a beacon whose
    /// measured power changes within the window (`beacon walk`) gives the distance of the
    /// window's middle, not of its last sample.
    var sums: [BeaconKey: (sum: Double, count: Int, powerSum: Double, powers: Int)] = [:]

    public init(anchors: [BeaconAnchor], model: PathLossModel = PathLossModel(), window: Double = 1, minimumBeacons: Int = 3,
                method: PositioningMethod = .weightedLeastSquares, maximumBeacons: Int? = nil, receiverHeight: Double = 0) {
        precondition(window > 0, "the window must be positive")
        self.receiverHeight = receiverHeight.isFinite ? receiverHeight : 0
        var byKey: [BeaconKey: BeaconAnchor] = [:]
        for anchor in anchors { byKey[anchor.key] = anchor }
        self.anchors = byKey
        self.model = model
        self.window = window
        self.minimumBeacons = max(2, minimumBeacons)
        self.method = method
        self.maximumBeacons = maximumBeacons.map { max($0, self.minimumBeacons) }
    }

    /// Adds a sample; returns the fixes of the windows it closes (none, one, or `nil` fixes for
    /// windows with too few beacons are skipped).
    public mutating func add(_ sample: RSSISample) -> [PositionFix] {
        guard anchors[sample.key] != nil, sample.rssi.isFinite else { return [] }
        var fixes: [PositionFix] = []
        if let start = windowStart {
            if sample.time >= start + window {
                if let fix = closeWindow() { fixes.append(fix) }
                // Skip empty windows: the next starts on the grid at or before the sample.
                let skipped = ((sample.time - start) / window).rounded(.down)
                windowStart = start + skipped * window
            }
        } else {
            windowStart = sample.time
        }
        var entry = sums[sample.key] ?? (0, 0, 0, 0)
        entry.sum += sample.rssi
        entry.count += 1
        if let power = sample.measuredPower {
            entry.powerSum += Double(power)
            entry.powers += 1
        }
        sums[sample.key] = entry
        return fixes
    }

    /// The fix of the last, open window (call at the end of the input).
    public mutating func finish() -> PositionFix? {
        defer { windowStart = nil }
        return closeWindow()
    }

    mutating func closeWindow() -> PositionFix? {
        defer { sums.removeAll(keepingCapacity: true) }
        guard let start = windowStart, sums.count >= minimumBeacons else { return nil }
        var ranges: [RangeMeasurement] = []
        var used: [RangedAnchor] = []
        var entries = sums.sorted(by: { $0.key < $1.key })
        if let maximumBeacons, entries.count > maximumBeacons {
            // Strongest first (ties by key, so the choice is stable), then back in key order.
            entries = Array(entries.sorted { ($0.value.sum / Double($0.value.count), $1.key) > ($1.value.sum / Double($1.value.count), $0.key) }
                .prefix(maximumBeacons)).sorted { $0.key < $1.key }
        }
        for (key, entry) in entries {
            guard let anchor = anchors[key] else { continue }
            let mean = entry.sum / Double(entry.count)
            let power = entry.powers > 0 ? entry.powerSum / Double(entry.powers) : Double(anchor.measuredPower)
            let distance = model.distance(rssi: mean, measuredPower: power)
            ranges.append(.fromRSSI(anchor: anchor.position, distance: distance))
            used.append(RangedAnchor(name: anchor.name, meanRSSI: mean, samples: entry.count, distance: distance))
        }
        guard let estimate = method.solve(ranges, receiverHeight: receiverHeight) else { return nil }
        return PositionFix(windowStart: start, windowEnd: start + window, estimate: estimate, ranges: used)
    }

    /// Fixes for a whole, time-ordered list of samples.
    public static func fixes(_ samples: [RSSISample], anchors: [BeaconAnchor], model: PathLossModel = PathLossModel(),
                             window: Double = 1, method: PositioningMethod = .weightedLeastSquares,
                             maximumBeacons: Int? = nil, receiverHeight: Double = 0) -> [PositionFix] {
        var locator = WindowedLocator(anchors: anchors, model: model, window: window, method: method, maximumBeacons: maximumBeacons,
                                      receiverHeight: receiverHeight)
        var fixes: [PositionFix] = []
        for sample in samples { fixes += locator.add(sample) }
        if let last = locator.finish() { fixes.append(last) }
        return fixes
    }
}
