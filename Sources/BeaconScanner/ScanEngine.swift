// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import BeaconCodec

/// The scan's logic without any I/O: HCI events in, reports, ranging updates and region events
/// out. Only beacons of the regions are reported and ranged. Every call takes the time.
public struct ScanEngine: Sendable {
    public private(set) var ranger: BeaconRanger
    public private(set) var monitor: RegionMonitor
    /// The formats heard at all (`nil`: every one); a phone's (``PhoneScanning/formats``).
    public let formats: Set<BeaconFormat>?

    /// - Parameters:
    ///   - regions: what to report, range and monitor; `[.any]` for every beacon.
    ///   - ranging: the ranging window, distance model and proximity thresholds.
    ///   - exitAfter: how long a region may go unheard before it counts as exited.
    ///   - formats: only beacons of these formats are reported, ranged and monitored (`nil`: all;
    ///     an iPhone's CoreLocation ranges iBeacons only).
    public init(regions: [BeaconRegion], ranging: RangingConfiguration = RangingConfiguration(), exitAfter: Duration = .seconds(30),
                formats: Set<BeaconFormat>? = nil) {
        ranger = BeaconRanger(configuration: ranging)
        monitor = RegionMonitor(regions: regions, exitAfter: exitAfter)
        self.formats = formats
    }

    /// One event from the controller at `time`: its iBeacon reports, and the enters/exits they cause.
    public mutating func ingest(_ event: HCIEvent, at time: ContinuousClock.Instant) -> [ScanUpdate] {
        var updates: [ScanUpdate] = []
        for sighting in ReportDecoder.sightings(in: event, at: time) {
            if let formats, !formats.contains(sighting.beacon.format) { continue }
            // A TLM frame has no identity: reported when every beacon is, never ranged.
            guard let identity = sighting.identity else {
                if monitor.regions.contains(.any) { updates.append(.report(sighting)) }
                continue
            }
            guard monitor.regions.contains(where: { $0.contains(identity) }) else { continue }
            updates.append(.report(sighting))
            ranger.record(sighting)
            updates += monitor.observe(identity, at: time).map(ScanUpdate.region)
        }
        return updates
    }

    /// The periodic update at `now`: the exits due, then the ranging list.
    public mutating func tick(at now: ContinuousClock.Instant) -> [ScanUpdate] {
        monitor.check(at: now).map(ScanUpdate.region) + [.ranging(ranger.update(at: now), at: now)]
    }
}
