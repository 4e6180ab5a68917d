// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// How ranging turns reports into ``RangedBeacon``s.
public struct RangingConfiguration: Hashable, Sendable {
    /// The smoothing window (iOS's ranging cycle is about 1 s).
    public var window: Duration
    public var model: DistanceModel
    public var thresholds: ProximityThresholds
    /// A beacon silent this long leaves the ranging list (until then it stays, as unknown).
    public var forgetAfter: Duration

    public init(window: Duration = .seconds(1), model: DistanceModel = .altBeacon,
                thresholds: ProximityThresholds = .standard, forgetAfter: Duration = .seconds(30)) {
        self.window = window
        self.model = model
        self.thresholds = thresholds
        self.forgetAfter = forgetAfter
    }
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
    /// Only for a frame without a power (none with an identity lacks one): iBeacon's usual −59 dBm.
    static let fallbackPowerAt1m: Int8 = -59
    private var tracks: [BeaconKey: Track] = [:]

    public init(configuration: RangingConfiguration = RangingConfiguration()) {
        self.configuration = configuration
    }

    /// Takes one report. Reports without an RSSI count as seen but do not move the mean.
    public mutating func record(_ sighting: BeaconSighting) {
        guard let id = sighting.identity else { return }  // TLM: nothing to range
        var track = tracks[id] ?? Track(window: RSSIWindow(length: configuration.window), sighting: sighting)
        track.sighting = sighting
        if let rssi = sighting.rssi { track.window.add(rssi, at: sighting.time) }
        tracks[id] = track
    }

    /// The beacons heard within ``RangingConfiguration/forgetAfter`` of `now`, nearest first.
    /// Also forgets the older ones.
    public mutating func update(at now: ContinuousClock.Instant) -> [RangedBeacon] {
        let forget = configuration.forgetAfter
        tracks = tracks.filter { now - $0.value.sighting.time < forget }
        for id in tracks.keys { tracks[id]?.window.trim(at: now) }
        return tracks.map { id, track in
            let rssi = track.window.mean(at: now)
            // Every format with an identity has a power at 1 m (Eddystone's is its 0 m power − 41 dB).
            let power = track.sighting.beacon.powerAt1m ?? BeaconRanger.fallbackPowerAt1m
            let accuracy = rssi.flatMap { configuration.model.distance(rssi: $0, measuredPower: power) }
            return RangedBeacon(
                identity: id, measuredPower: power, rssi: rssi, accuracy: accuracy,
                proximity: configuration.thresholds.proximity(forDistance: accuracy),
                lastSeen: track.sighting.time, reportsPerSecond: track.window.rate(at: now),
                address: track.sighting.address)
        }.sorted(by: RangedBeacon.nearestFirst)
    }
}
