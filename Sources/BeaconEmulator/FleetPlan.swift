// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconProfiles
import HCI

/// How a fleet of beacons goes on air: per adapter, which advertiser carries which beacons, and
/// how they take turns.
public struct FleetPlan: Sendable {
    public var adapters: [AdapterPlan]
    /// Things the user should know before starting (beacons seen rarely, dropped TX power, …),
    /// one line per kind of problem, naming a few of the beacons it concerns (a setting it
    /// advises as a `FrontEndTerm`, named by the front end that presents the plan).
    public var warnings: [TermedText]
    /// What the user chose that changes how beacons go on air (scannable beacons with a local
    /// name, …): not problems, consequences. One line per kind.
    public var notes: [TermedText] = []
    /// The coverage goal: every beacon on air at least this often (`--max-silence`).
    public var maximumSilence: Duration = .seconds(1)

    /// The longest any beacon may go unseen under this plan.
    public var longestSilence: Duration { placements.map(\.longestGap).max() ?? .zero }

    /// Whether every beacon is on air at least once per ``maximumSilence`` (a millisecond of
    /// rounding allowed: turns are whole microseconds, intervals whole 0.625 ms units).
    public var meetsGoal: Bool { longestSilence <= maximumSilence + .milliseconds(1) }

    /// When the goal is not met: how many adapters like the ones planned would meet it.
    public var adaptersNeeded: Int?

    /// Every beacon with where and how often it goes on air.
    public var placements: [Placement] {
        adapters.flatMap { a in
            // Once per adapter, not per beacon: each walks every advertiser (65,536 beacons on 16
            // sets took seconds in a debug build, and a stop waited for it).
            let cycle = a.cycleDuration, rotates = a.rotates, turns = a.slotsPerCycle
            return a.advertisers.flatMap { adv in
                adv.beacons.enumerated().map { slot, beacon in
                    let interval = a.onAirInterval(of: beacon, rotates: rotates)
                    let taking = adv.beacons.count > 1
                    let events = taking ? a.turnTiming.events(in: a.slotDuration, at: interval.duration) : 1
                    return Placement(beacon: beacon, adapter: a.capabilities.adapter, advertiser: adv.handle, mode: a.mode, slot: slot,
                                     slots: adv.beacons.count, slotDuration: a.slotDuration, cycle: cycle, interval: interval,
                                     eventsPerTurn: events,
                                     longestGap: taking ? a.turnTiming.longestGap(turn: a.slotDuration, turns: turns, interval: interval.duration)
                                         : TurnTiming.longestGap(alwaysOnAt: interval.duration))
                }
            }
        }
    }
}

/// The plan for one controller.
public struct AdapterPlan: Sendable {
    /// How the adapter carries its beacons: extended advertising sets (one each, or rotating), or
    /// legacy advertising.
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
    /// One advertiser per extended set in use, by handle (0, 1, … on a first plan; a re-plan keeps
    /// the handles of staying beacons, so some may be free), or a single one for legacy mode.
    public var advertisers: [Advertiser]
    /// How long each beacon stays on air in its turn (rotation only).
    public var slotDuration: Duration
    /// The longest interval a rotating beacon advertises at, so that it is seen in its turn: for
    /// sets that share an address and stay enabled (nil: every beacon keeps its profile's interval).
    public var rotationIntervalCap: AdvertisingInterval? = nil
    /// What a turn costs in time on this controller: the model the plan's figures come from.
    public var turnTiming = TurnTiming(commandTime: FleetPlanner.assumedCommandTime, commands: 4)

    /// The interval `beacon` goes on air at under this plan: its profile's, except that a
    /// rotating beacon comes down to the cap (a shared address) and up to the controller's minimum.
    public func onAirInterval(of beacon: BeaconProfile) -> AdvertisingInterval {
        onAirInterval(of: beacon, rotates: rotates)
    }

    /// ``onAirInterval(of:)`` with ``rotates`` worked out by the caller (once for many beacons).
    func onAirInterval(of beacon: BeaconProfile, rotates: Bool) -> AdvertisingInterval {
        let own = AdvertisingInterval(milliseconds: beacon.intervalMilliseconds)
        guard rotates else { return own }
        return max(capabilities.minimumNonConnectableInterval, min(own, rotationIntervalCap ?? own))
    }

    /// Advertising events each rotating beacon gets per turn (at least one), for the plan.
    public var eventsPerTurn: ClosedRange<Int>? {
        guard rotates else { return nil }
        let counts = advertisers.flatMap(\.beacons).map(eventsPerTurn(of:))
        return (counts.min() ?? 1)...(counts.max() ?? 1)
    }

    /// Advertising events `beacon` certainly gets in one turn (at least one): those that fit after
    /// the turn's commands, each with the most advDelay (``TurnTiming/events(in:at:)``).
    public func eventsPerTurn(of beacon: BeaconProfile) -> Int {
        turnTiming.events(in: slotDuration, at: onAirInterval(of: beacon).duration)
    }

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
    public var adapter: AdapterName
    public var advertiser: UInt8
    public var mode: AdapterPlan.Mode
    /// The beacon's turn in its advertiser's rotation (0 when it does not rotate).
    public var slot: Int
    public var slots: Int
    public var slotDuration: Duration
    public var cycle: Duration
    /// The interval it goes on air at (its profile's, or another for a rotating beacon: see
    /// ``intervalChanged``).
    public var interval: AdvertisingInterval
    /// Advertising events it certainly gets in each of its turns (1 when it does not rotate).
    public var eventsPerTurn: Int
    /// The longest a scanner may wait to hear it, with every event's advDelay at its maximum and
    /// the turns' commands at the controller's command time (``TurnTiming``): one interval and
    /// 10 ms when always on air; from its last event in one turn to its first in the next.
    public var longestGap: Duration

    /// The interval its profile asks for.
    public var profileInterval: AdvertisingInterval { AdvertisingInterval(milliseconds: beacon.intervalMilliseconds) }
    /// Whether it goes on air at another interval than its profile's: a rotating beacon comes down
    /// to one event per turn at least, and up to the controller's minimum.
    public var intervalChanged: Bool { interval != profileInterval }

    /// Advertising events per second it certainly gets: one per interval and advDelay when always
    /// on air; its events per turn once a cycle when rotating.
    public var eventsPerSecond: Double {
        guard slots > 1 else { return 1 / TurnTiming.longestGap(alwaysOnAt: interval.duration).seconds }
        return Double(eventsPerTurn) / cycle.seconds
    }
}

extension Duration {
    static func milliseconds(_ value: Double) -> Duration { .nanoseconds(Int64((value * 1_000_000).rounded())) }
}
