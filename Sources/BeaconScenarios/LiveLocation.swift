// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconScanner
import Synchronization

/// Positioning while scanning (`beacon locate --live`): each scan update becomes RSSI samples
/// for a `WindowedLocator`, and the locator's windows become fixes.
///
/// Like the phone it imitates, it feeds either every report (`raw`: the receiver's own RSSI) or
/// each ranging update's smoothed RSSI (`ios`, `android`: what an app on that phone gets).
/// Times are seconds since `start`.
public final class LiveLocation: Sendable {
    private struct State {
        var locator: WindowedLocator
        var samples = 0
        var fixes = 0
    }

    private let state: Mutex<State>
    private let perReport: Bool
    private let start: ContinuousClock.Instant

    public init(locator: WindowedLocator, phone: PhoneScanning, start: ContinuousClock.Instant = .now) {
        state = Mutex(State(locator: locator))
        perReport = phone.profile == .raw
        self.start = start
    }

    /// The fixes `update` completes (often none: a window closes now and then).
    public func fixes(after update: ScanUpdate) -> [PositionFix] {
        add(samples(of: update))
    }

    /// The last window's fix, once the scan has ended.
    public func finish() -> PositionFix? {
        state.withLock { s in
            let fix = s.locator.finish()
            if fix != nil { s.fixes += 1 }
            return fix
        }
    }

    /// How many samples went in, and how many fixes came out.
    public struct Counts: Sendable, Equatable {
        public var samples: Int
        public var fixes: Int
    }

    /// How many samples went in so far, and how many fixes came out.
    public var counts: Counts { state.withLock { Counts(samples: $0.samples, fixes: $0.fixes) } }

    private func samples(of update: ScanUpdate) -> [RSSISample] {
        switch update {
        case .report(let sighting) where perReport:
            guard let rssi = sighting.rssi, let key = sighting.identity else { return [] }
            return [RSSISample(time: seconds(since: sighting.time), key: key, rssi: Double(rssi), measuredPower: sighting.beacon.powerAt1m)]
        case .ranging(let beacons, let time) where !perReport:
            let elapsed = seconds(since: time)
            return beacons.compactMap { b in b.rssi.map { RSSISample(time: elapsed, key: b.identity, rssi: $0, measuredPower: b.measuredPower) } }
        default:
            return []
        }
    }

    private func seconds(since time: ContinuousClock.Instant) -> Double {
        (time - start) / .milliseconds(1) / 1000
    }

    private func add(_ samples: [RSSISample]) -> [PositionFix] {
        guard !samples.isEmpty else { return [] }
        return state.withLock { s in
            s.samples += samples.count
            return samples.flatMap { sample -> [PositionFix] in
                let fixes = s.locator.add(sample)
                s.fixes += fixes.count
                return fixes
            }
        }
    }
}
