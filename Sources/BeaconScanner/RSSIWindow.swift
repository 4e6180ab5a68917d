// SPDX-License-Identifier: GPL-2.0-or-later

/// The RSSI samples of one beacon in the last `length` of time, and their mean.
///
/// iOS ranges in cycles of about one second and reports, per beacon, an RSSI smoothed over the
/// cycle; this is the same idea as a sliding window: the arithmetic mean of every sample no older
/// than `length` (sample times within `(now − length, now]`). A beacon with no sample in the
/// window has no RSSI (`nil`), so its proximity becomes unknown, as on a phone.
public struct RSSIWindow: Hashable, Sendable {
    /// One report's RSSI and when it came.
    public struct Sample: Hashable, Sendable {
        public var time: ContinuousClock.Instant
        public var rssi: Int8
    }

    public let length: Duration
    /// Samples oldest first, none older than `length` before the newest ``add(_:at:)`` or ``trim(at:)``.
    public private(set) var samples: [Sample] = []

    /// - Precondition: `length > .zero`.
    public init(length: Duration = .seconds(1)) {
        precondition(length > .zero, "the RSSI window must be longer than zero")
        self.length = length
    }

    /// Adds a sample; samples must come in time order (a sample older than the newest is dropped).
    public mutating func add(_ rssi: Int8, at time: ContinuousClock.Instant) {
        if let last = samples.last, time < last.time { return }
        samples.append(Sample(time: time, rssi: rssi))
        trim(at: time)
    }

    /// Drops the samples that have left the window at `now`.
    public mutating func trim(at now: ContinuousClock.Instant) {
        let cutoff = now - length
        if let keep = samples.firstIndex(where: { $0.time > cutoff }) {
            if keep > 0 { samples.removeFirst(keep) }
        } else {
            samples.removeAll()
        }
    }

    /// The mean RSSI of the samples in the window at `now`; `nil` without any.
    public func mean(at now: ContinuousClock.Instant) -> Double? { mean(at: now, over: length) }

    /// The mean RSSI of the samples in the last `span` (at most `length`) before `now`.
    public func mean(at now: ContinuousClock.Instant, over span: Duration) -> Double? {
        let values = self.values(at: now, over: span)
        return values.isEmpty ? nil : Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count)
    }

    /// The RSSIs of the samples in `(now − span, now]` (`span` at most `length`), oldest first.
    public func values(at now: ContinuousClock.Instant, over span: Duration) -> [Int8] {
        let cutoff = now - min(span, length)
        // The samples are in time order (``add(_:at:)`` drops older ones), so those in the span
        // are one run at the end: found from the end, not by reading 20 s of samples for a 1 s
        // mean (a phone ranging 160 beacons asks for both every second).
        var end = samples.count
        while end > 0, now < samples[end - 1].time { end -= 1 }
        var start = end
        while start > 0, cutoff < samples[start - 1].time { start -= 1 }
        return samples[start..<end].map(\.rssi)
    }

    /// How many samples are in the window at `now`.
    public func count(at now: ContinuousClock.Instant) -> Int { values(at: now, over: length).count }

    /// Samples per second in the window at `now` (over `span`, at most `length`, when given).
    public func rate(at now: ContinuousClock.Instant, over span: Duration? = nil) -> Double {
        let span = min(span ?? length, length)
        return Double(values(at: now, over: span).count) / span.seconds
    }
}
