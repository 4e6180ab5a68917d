// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// An enter or exit, for one beacon of the region, and whether it moved the region itself.
public struct RegionEvent: Hashable, Sendable {
    /// Whether the region was entered or exited.
    public enum Kind: String, Hashable, Sendable {
        case enter
        case exit
    }

    public var kind: Kind
    public var region: BeaconRegion
    /// The beacon that arrived or fell silent.
    public var beacon: BeaconKey
    /// When it happened: the first report (enter) or the end of the silence (last report plus the
    /// exit delay), not when the monitor noticed.
    public var time: ContinuousClock.Instant
    /// Whether the region as a whole was entered (the first beacon in it) or exited (the last one
    /// gone) by this event: `CLBeaconRegion`'s didEnter/didExit.
    public var regionChanged: Bool

    public init(kind: Kind, region: BeaconRegion, beacon: BeaconKey, time: ContinuousClock.Instant, regionChanged: Bool) {
        self.kind = kind
        self.region = region
        self.beacon = beacon
        self.time = time
        self.regionChanged = regionChanged
    }
}

/// Region monitoring like CoreLocation's: a region is entered when a matching beacon is first
/// seen and exited after every matching beacon has been silent for `exitAfter` (30 s by default;
/// iOS waits about as long before it reports an exit). Each beacon enters and exits on its own
/// too, so a tool can say which beacons came and went.
///
/// Pure logic with an injected clock: ``observe(_:at:)`` and ``check(at:)`` take the time, so
/// tests drive it with made-up instants and no waiting.
public struct RegionMonitor: Sendable {
    public let regions: [BeaconRegion]
    public let exitAfter: Duration
    /// Per region, the beacons inside and when each was last seen.
    private var present: [BeaconRegion: [BeaconKey: ContinuousClock.Instant]] = [:]

    /// - Precondition: `exitAfter > .zero`.
    public init(regions: [BeaconRegion], exitAfter: Duration = .seconds(30)) {
        precondition(exitAfter > .zero, "the exit delay must be longer than zero")
        self.regions = regions
        self.exitAfter = exitAfter
    }

    /// Whether the region has a beacon inside.
    public func isInside(_ region: BeaconRegion) -> Bool { !(present[region]?.isEmpty ?? true) }

    /// The beacons inside `region`, sorted.
    public func beacons(in region: BeaconRegion) -> [BeaconKey] { (present[region] ?? [:]).keys.sorted() }

    /// A report from `beacon` at `time`: the exits due before it first (a beacon silent for longer
    /// than the delay left, even if it is this one coming back), then the enters it causes.
    public mutating func observe(_ beacon: BeaconKey, at time: ContinuousClock.Instant) -> [RegionEvent] {
        var events = check(at: time)
        for region in regions where region.contains(beacon) {
            var inside = present[region] ?? [:]
            if inside[beacon] == nil {
                events.append(RegionEvent(kind: .enter, region: region, beacon: beacon, time: time, regionChanged: inside.isEmpty))
            }
            inside[beacon] = time
            present[region] = inside
        }
        return events
    }

    /// The exits due at `now`: every beacon silent for `exitAfter` or longer, oldest silence
    /// first; the last one out of a region exits the region.
    public mutating func check(at now: ContinuousClock.Instant) -> [RegionEvent] {
        var events: [RegionEvent] = []
        for region in regions {
            guard var inside = present[region], !inside.isEmpty else { continue }
            let gone = inside.filter { now - $0.value >= exitAfter }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            for (beacon, last) in gone {
                inside[beacon] = nil
                events.append(RegionEvent(kind: .exit, region: region, beacon: beacon, time: last + exitAfter, regionChanged: inside.isEmpty))
            }
            present[region] = inside
        }
        return events
    }
}
