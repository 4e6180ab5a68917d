// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconProfiles

/// How a fleet of beacons goes on air: per adapter, which advertiser carries which beacons, and
/// how they take turns.
public struct FleetPlan: Sendable {
    public var adapters: [AdapterPlan]
    /// Things the user should know before starting (beacons seen rarely, dropped TX power, …).
    public var warnings: [String]

    /// Every beacon with where and how often it goes on air.
    public var placements: [Placement] {
        adapters.flatMap { a in
            a.advertisers.flatMap { adv in
                adv.beacons.enumerated().map { slot, beacon in
                    Placement(beacon: beacon, adapter: a.capabilities.adapter, advertiser: adv.handle, mode: a.mode, slot: slot,
                              slots: adv.beacons.count, slotDuration: a.slotDuration, cycle: a.cycleDuration)
                }
            }
        }
    }
}

/// The plan for one controller.
public struct AdapterPlan: Sendable {
    public enum Mode: String, Sendable {
        /// One extended advertising set per beacon, all on air all the time.
        case extendedSets = "extended sets"
        /// Extended advertising sets, each carrying a rotating subset of beacons.
        case extendedRotation = "extended rotation"
        /// The one legacy advertiser, rotating through its beacons (or carrying a single one).
        case legacy = "legacy"
    }

    public var capabilities: ControllerCapabilities
    public var mode: Mode
    /// One advertiser per extended set (handles 0, 1, …), or a single one for legacy mode.
    public var advertisers: [Advertiser]
    /// How long each beacon stays on air in its turn (rotation only).
    public var slotDuration: Duration

    /// Number of slots before the rotation repeats.
    public var slotsPerCycle: Int { advertisers.map(\.beacons.count).max() ?? 0 }
    /// How long until a rotating beacon is on air again; zero when nothing rotates.
    public var cycleDuration: Duration { slotsPerCycle > 1 ? slotDuration * slotsPerCycle : .zero }
    public var rotates: Bool { slotsPerCycle > 1 }
}

/// One advertiser (an extended set, or the legacy advertiser) and the beacons it carries in turn.
public struct Advertiser: Sendable {
    /// The advertising set handle (0…0xEF); 0 for the legacy advertiser.
    public var handle: UInt8
    public var beacons: [BeaconProfile]
    /// When set, every beacon of this advertiser goes on air from this address, so a rotation
    /// slot needs only new data (one command) instead of disable → address → data → enable.
    public var sharedAddress: BluetoothAddress? = nil

    /// The beacon on air in `slot`.
    public func beacon(inSlot slot: Int) -> BeaconProfile? {
        beacons.isEmpty ? nil : beacons[slot % beacons.count]
    }
}

/// Where one beacon goes on air and how often a scanner gets a chance to see it.
public struct Placement: Sendable {
    public var beacon: BeaconProfile
    public var adapter: String
    public var advertiser: UInt8
    public var mode: AdapterPlan.Mode
    /// The beacon's turn in its advertiser's rotation (0 when it does not rotate).
    public var slot: Int
    public var slots: Int
    public var slotDuration: Duration
    public var cycle: Duration

    /// Advertising events per second the beacon gets, averaged over a cycle.
    public var eventsPerSecond: Double {
        let perSecondOnAir = 1000 / beacon.intervalMilliseconds
        guard slots > 1 else { return perSecondOnAir }
        return perSecondOnAir / Double(slots)
    }

    /// The longest a scanner may wait to see the beacon: one interval when always on air,
    /// otherwise the time until its next turn plus its first interval.
    public var longestGap: Duration {
        let interval = Duration.milliseconds(beacon.intervalMilliseconds)
        guard slots > 1 else { return interval }
        return cycle - slotDuration + interval
    }
}

extension Duration {
    static func milliseconds(_ value: Double) -> Duration { .nanoseconds(Int64((value * 1_000_000).rounded())) }
}
