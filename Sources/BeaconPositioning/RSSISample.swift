// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON

/// One received advertisement of a beacon: what a scan, a trace or a capture gives.
public struct RSSISample: Hashable, Sendable {
    /// Seconds (any origin; only differences matter).
    public var time: Double
    public var key: BeaconKey
    /// dBm.
    public var rssi: Double
    /// The payload's measured power, if known; otherwise the fleet file's is used.
    public var measuredPower: Int8?

    public init(time: Double, key: BeaconKey, rssi: Double, measuredPower: Int8? = nil) {
        self.time = time
        self.key = key
        self.rssi = rssi
        self.measuredPower = measuredPower
    }
}

/// A position computed from one window of samples.
public struct PositionFix: Hashable, Sendable {
    /// Start and end of the window, seconds.
    public var windowStart: Double
    public var windowEnd: Double
    public var estimate: PositionEstimate
    /// Per beacon: name, mean RSSI in the window, the distance it gave.
    public var ranges: [RangedAnchor]

    public init(windowStart: Double, windowEnd: Double, estimate: PositionEstimate, ranges: [RangedAnchor]) {
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.estimate = estimate
        self.ranges = ranges
    }

    /// The middle of the window: the time the fix best describes for a moving receiver.
    public var time: Double { (windowStart + windowEnd) / 2 }
}

/// One beacon's contribution to a fix.
public struct RangedAnchor: Hashable, Sendable {
    public var name: String
    public var meanRSSI: Double
    public var samples: Int
    public var distance: Double

    public init(name: String, meanRSSI: Double, samples: Int, distance: Double) {
        self.name = name
        self.meanRSSI = meanRSSI
        self.samples = samples
        self.distance = distance
    }
}

extension RSSISample {
    /// The sample a trace line gives (BeaconJSON's `TraceSample`, the reading side of
    /// `beacon scan --json`): its power at 1 m, when the line has one, as the measured power.
    public init(_ trace: TraceSample) {
        self.init(time: trace.time, key: trace.key, rssi: trace.rssi, measuredPower: trace.powerAt1m)
    }
}
