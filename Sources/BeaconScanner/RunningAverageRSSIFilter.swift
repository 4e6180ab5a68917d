// SPDX-License-Identifier: GPL-2.0-or-later

/// The Android Beacon Library's default RSSI filter (`RunningAverageRssiFilter`,
/// AltBeacon/android-beacon-library, lib/src/main/java/org/altbeacon/beacon/service): the
/// samples younger than 20 s (`DEFAULT_SAMPLE_EXPIRATION_MILLISECONDS`; a sample exactly 20 s
/// old is gone), sorted by RSSI; with more than two, the lowest `n/10 + 1` and the highest
/// `n/10 + 1` are dropped (integer division: 3–9 samples lose one each side, 10–19 two, …);
/// the mean of the rest. So "the top and bottom 10 %" is really 10 % plus one sample.
public enum RunningAverageRSSIFilter {
    /// How long a sample counts.
    public static let sampleExpiration = Duration.seconds(20)

    /// The filtered RSSI of `samples` (any order); `nil` without any.
    public static func average(_ samples: [Int8]) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let size = sorted.count
        var start = 0, end = size - 1
        if size > 2 {
            start = size / 10 + 1
            end = size - size / 10 - 2
        }
        let kept = sorted[start...end]
        return Double(kept.reduce(0) { $0 + Int($1) }) / Double(kept.count)
    }
}
