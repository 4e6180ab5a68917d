// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// How ranging turns reports into ``RangedBeacon``s.
public struct RangingConfiguration: Hashable, Sendable {
    /// The ranging cycle: the RSSI shown is over this window (iOS's cycle is about 1 s).
    public var window: Duration
    public var model: DistanceModel
    public var thresholds: ProximityThresholds
    /// A beacon silent this long is forgotten: its samples go (until then they count again
    /// when it is heard).
    public var forgetAfter: Duration
    /// A beacon silent this long is no longer listed (until then it stays, as unknown when the
    /// cycle had no report); ``forgetAfter`` unless told. Android's library lists only the
    /// beacons heard in the cycle but keeps their 20 s of samples.
    public var listedFor: Duration
    /// How the RSSI and the RSSI the accuracy comes from are smoothed.
    public var smoothing: RSSISmoothing

    public init(window: Duration = .seconds(1), model: DistanceModel = .altBeacon,
                thresholds: ProximityThresholds = .standard, forgetAfter: Duration = .seconds(30),
                listedFor: Duration? = nil, smoothing: RSSISmoothing = .cycleMean) {
        self.window = window
        self.model = model
        self.thresholds = thresholds
        self.forgetAfter = forgetAfter
        self.listedFor = min(listedFor ?? forgetAfter, forgetAfter)
        self.smoothing = smoothing
    }

    /// The RSSI to show and the RSSI to estimate the distance from, per ``RSSISmoothing``, from
    /// a window at least ``history`` long.
    public func smoothed(_ window: RSSIWindow, at now: ContinuousClock.Instant) -> (rssi: Double?, forAccuracy: Double?) {
        let cycle = window.mean(at: now, over: self.window)
        switch smoothing {
        case .cycleMean:
            return (cycle, cycle)
        case .accuracyOver(let span):
            return (cycle, cycle == nil ? nil : window.mean(at: now, over: span))
        case .runningAverage:
            let average = RunningAverageRSSIFilter.average(window.values(at: now, over: RunningAverageRSSIFilter.sampleExpiration))
            return (average, average)
        }
    }

    /// Whether a beacon last heard `silence` ago is in a ranging update's list.
    public func lists(silentFor silence: Duration) -> Bool { silence < listedFor }

    /// How much history a beacon's samples must keep.
    public var history: Duration {
        switch smoothing {
        case .cycleMean: window
        case .accuracyOver(let span): max(window, span)
        case .runningAverage: max(window, RunningAverageRSSIFilter.sampleExpiration)
        }
    }
}

/// Which samples make the RSSI a ranging update shows and the RSSI its accuracy comes from.
public enum RSSISmoothing: Hashable, Sendable {
    /// Both the mean of the cycle's samples (`--as raw`): nothing older than one window counts.
    case cycleMean
    /// The RSSI is the cycle's mean; the accuracy comes from the mean over a longer span, but
    /// only while the beacon was heard in the cycle (iOS: accuracy −1 otherwise).
    case accuracyOver(Duration)
    /// Both from the Android Beacon Library's ``RunningAverageRSSIFilter`` (20 s, trimmed).
    case runningAverage
}

/// Ranging like CoreLocation: per beacon identity, the RSSI smoothed over a window, an accuracy
/// from the distance model, a proximity class, when it was last seen and how often it reports.
///
/// Pure logic: every call takes the time, so tests drive it with made-up instants.
public struct BeaconRanger: Sendable {
    struct Track: Sendable {
        var window: RSSIWindow
        var sighting: BeaconSighting
    }

    public var configuration: RangingConfiguration
    private var tracks: [BeaconKey: Track] = [:]

    public init(configuration: RangingConfiguration = RangingConfiguration()) {
        self.configuration = configuration
    }

    /// Takes one report. Reports without an RSSI count as seen but do not move the mean.
    public mutating func record(_ sighting: BeaconSighting) {
        guard let id = sighting.identity else { return }  // TLM: nothing to range
        var track = tracks[id] ?? Track(window: RSSIWindow(length: configuration.history), sighting: sighting)
        track.sighting = sighting
        if let rssi = sighting.rssi { track.window.add(rssi, at: sighting.time) }
        tracks[id] = track
    }

    /// The beacons heard within ``RangingConfiguration/listedFor`` of `now`, nearest first.
    /// Also forgets those silent for ``RangingConfiguration/forgetAfter``.
    public mutating func update(at now: ContinuousClock.Instant) -> [RangedBeacon] {
        let forget = configuration.forgetAfter
        tracks = tracks.filter { now - $0.value.sighting.time < forget }
        for id in tracks.keys { tracks[id]?.window.trim(at: now) }
        return tracks.filter { configuration.lists(silentFor: now - $0.value.sighting.time) }.map { id, track in
            let (rssi, accuracyRSSI) = configuration.smoothed(track.window, at: now)
            // Every format with an identity has a power at 1 m (Eddystone's is its 0 m power − 41 dB).
            let power = track.sighting.beacon.powerAt1m ?? IBeacon.defaultMeasuredPower
            let accuracy = accuracyRSSI.flatMap { configuration.model.distance(rssi: $0, measuredPower: power) }
            return RangedBeacon(
                identity: id, measuredPower: power, rssi: rssi, accuracy: accuracy,
                proximity: configuration.thresholds.proximity(forDistance: accuracy),
                lastSeen: track.sighting.time, reportsPerSecond: track.window.rate(at: now, over: configuration.window),
                address: track.sighting.address)
        }.sorted(by: RangedBeacon.nearestFirst)
    }

}
