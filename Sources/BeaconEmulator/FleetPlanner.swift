// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconAdapters
import BeaconProfiles
import HCI
import KnownControllers

/// Turns beacons and the controllers that will carry them into a ``FleetPlan``.
public struct FleetPlanner: Sendable {
    /// Use the one legacy advertiser even where extended advertising exists (`--legacy`).
    public var forceLegacy = false
    /// How long each rotating beacon stays on air in its turn; nil = ``defaultSlot(for:)``.
    public var slotDuration: Duration?
    /// Use at most this many extended sets per controller (nil = all it has).
    public var maximumSets: Int?
    /// Rotating beacons on one advertiser share its first beacon's address (`--share-address`):
    /// one command per slot instead of four, but a scanner sees one address per advertiser.
    /// Phones ranging iBeacons never see addresses (iOS hides them), so this is often fine.
    public var shareAddresses: Bool
    /// The coverage goal: every beacon on air at least this often (`--max-silence`, default 1 s:
    /// iOS ranges once a second, and a beacon unseen for a few seconds leaves a phone's list).
    public var maximumSilence: Duration
    /// The command time to plan turns with, whatever the probe measured (nil: the probe's, at
    /// least ``assumedCommandTime``), for a controller known better than a probe can tell, and
    /// for plans that must not depend on the machine's load (tests). A run then keeps it: it
    /// does not plan again for the command time it measures.
    public var commandTime: Duration?

    /// How long one command takes to be answered when the probe measured nothing faster to go by,
    /// and the least the planner assumes whatever it measured (a USB controller: about 1 ms; the
    /// virtual controller and Bumble over TCP answer in a fraction of it, and a plan made there
    /// should hold on the hardware it stands in for). A slower controller's measured time is used.
    public static let assumedCommandTime: Duration = .milliseconds(1)

    public init(forceLegacy: Bool = false, slotDuration: Duration? = nil, maximumSets: Int? = nil, shareAddresses: Bool = false,
                maximumSilence: Duration = .seconds(1), commandTime: Duration? = nil) {
        self.commandTime = commandTime
        self.forceLegacy = forceLegacy
        self.slotDuration = slotDuration
        self.maximumSets = maximumSets
        self.shareAddresses = shareAddresses
        self.maximumSilence = maximumSilence
    }

    /// A rotating beacon should get at least three advertising events per turn, so a scanner
    /// that misses one or two (channel hopping, its own scan window) still sees it; and no turn
    /// is shorter than 100 ms, to keep the command rate sane.
    public static func defaultSlot(for beacons: [BeaconProfile]) -> Duration {
        let longest = beacons.map(\.intervalMilliseconds).max() ?? 100
        return .milliseconds(max(100, 3 * longest))
    }

    /// The consequences of what `beacons` ask for, one line per kind.
    static func notes(_ beacons: [BeaconProfile]) -> [TermedText] {
        var notes: [TermedText] = []
        let scannable = beacons.filter { $0.scanResponse != nil }.map(\.name)
        if !scannable.isEmpty {
            // Core Vol 6 Part B §4.4.2.2.1 (5.0+): advInterval ≥ 20 ms for scannable and
            // non-connectable undirected events alike; before 5.0 both had a 100 ms floor.
            notes.append(group(scannable) { "\(Plural.verb($0, singular: "sends", plural: "send")) a local name in a scan response, so \(Plural.verb($0, singular: "it advertises", plural: "they advertise")) scannable (ADV_SCAN_IND, legacy PDUs) rather than non-connectable: the interval floor is the same (20 ms from Bluetooth 5.0, 100 ms before), but an event a phone's active scan answers is longer (SCAN_REQ and SCAN_RSP on each channel it is asked on, about 0.5 ms with a full response), so dense fleets leave less air to each other; becoming or ceasing to be scannable restarts the advertiser" })
        }
        let telemetry = beacons.filter { $0.telemetry != nil }.map(\.name)
        if !telemetry.isEmpty {
            notes.append(group(telemetry) { "\(Plural.verb($0, singular: "interleaves", plural: "interleave")) Eddystone TLM frames (tlm:): a burst every `every` seconds, for `duration`, sent as new advertising data from the host while the advertiser stays on (not in \(FrontEndTerm.dryRun)'s listing); advertising count and time since boot count from the start of the run" })
        }
        let raw = beacons.filter { $0.rawData != nil }.map(\.name)
        if !raw.isEmpty {
            notes.append(group(raw) { "\(Plural.verb($0, singular: "sends", plural: "send")) DELIBERATELY NON-CONFORMING data (format: raw or patch:), for testing receivers: only its length was checked" })
        }
        return notes
    }

    /// Plans `beacons` on `controllers`.
    ///
    /// - Parameters:
    ///   - beacons: the beacons to put on air.
    ///   - controllers: the controllers as probed (or assumed), in the order of their adapters.
    ///   - previous: the plan on air now, when this one replaces it (a scenario step, a
    ///     walk, a reload): a beacon that stays keeps its adapter, its advertiser and its turn
    ///     wherever it still fits, and new beacons take the free advertisers, so the beacons that
    ///     stay are not restarted (see `keptPlacements(_:for:)`).
    public func plan(_ beacons: [BeaconProfile], on controllers: [ControllerCapabilities], keeping previous: FleetPlan? = nil) -> FleetPlan {
        precondition(!controllers.isEmpty, "a plan needs at least one controller")
        var warnings: [TermedText] = []
        let kept = Self.keptPlacements(previous, for: beacons)
        let shares = split(beacons, across: controllers, keeping: kept)
        var adapters: [AdapterPlan] = []
        for (caps, share) in zip(controllers, shares) where !share.isEmpty {
            let before = kept.isEmpty ? nil : previous?.adapters.first { $0.capabilities.adapter == caps.adapter }
            adapters.append(planOne(share, on: caps, keeping: before, warnings: &warnings))
        }
        var plan = FleetPlan(adapters: adapters, warnings: [], maximumSilence: maximumSilence)
        if !plan.meetsGoal {
            plan.adaptersNeeded = adaptersNeeded(for: beacons.count, on: controllers)
            let late = plan.placements.filter { $0.longestGap > maximumSilence + .milliseconds(1) }.map(\.beacon.name)
            warnings.append(Self.group(late, { _ in "may go unseen for longer than the goal of \(NumberText.duration(maximumSilence)) (\(FrontEndTerm.maximumSilence))" }))
        }
        plan.warnings = warnings
        plan.notes = Self.notes(beacons) + Self.intervalNotes(plan.placements)
        return plan
    }

    /// A line for the beacons that go on air at another interval than their profiles' (rotation
    /// brings a beacon down so that each turn has its events, or up to the controller's minimum):
    /// never a silent rewrite. Each beacon's two intervals are in the table and the JSON.
    static func intervalNotes(_ placements: [Placement]) -> [TermedText] {
        let changed = placements.filter(\.intervalChanged)
        guard !changed.isEmpty else { return [] }
        var pairs: [String] = []
        for p in changed {
            let pair = "\(p.interval.millisecondText) ms instead of \(p.profileInterval.millisecondText) ms"
            if !pairs.contains(pair) { pairs.append(pair) }
        }
        let shown = pairs.prefix(3).joined(separator: ", ") + (pairs.count > 3 ? ", …" : "")
        return [group(changed.map(\.beacon.name)) { "\(Plural.verb($0, singular: "goes", plural: "go")) on air at another interval than \($0 == 1 ? "its profile's" : "their profiles'") (\(shown)): taking turns, a beacon needs its events within each turn, and no interval may be below the controller's minimum" }]
    }

    /// One warning line for many beacons: how many, a few names, and what is wrong (`message`
    /// gets the count, so its verb can agree: `{ "\(Plural.verb($0, singular: "asks", plural: "ask")) for …" }`).
    static func group(_ names: [String], _ message: (Int) -> TermedText) -> TermedText {
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        return "\(Plural.of(names.count, "beacon")) (\(shown)) \(message(names.count))"
    }

    /// The time model of a turn on `caps` with `advertisers` rotating sets carrying `beacons`:
    /// its commands (see ``TurnTiming``) and the controller's measured command time, never less
    /// than ``assumedCommandTime``.
    ///
    /// Commands per turn: with its own address, a set is restarted for each turn: extended sets
    /// take one disable and one enable for all (per 63 sets, §7.8.56) and, per set, an address and
    /// data, parameters when the beacons differ in interval, TX power or scannability, and a scan
    /// response when any has one; the legacy advertiser the same for its one set. Sharing an
    /// address, a turn is new data (and scan response) per set.
    public func turnTiming(on caps: ControllerCapabilities, advertisers: Int, beacons: [BeaconProfile] = []) -> TurnTiming {
        let first = beacons.first
        let differ = beacons.contains {
            $0.intervalMilliseconds != first?.intervalMilliseconds || $0.txPower != first?.txPower || ($0.scanResponse == nil) != (first?.scanResponse == nil)
        }
        let p = differ ? 1 : 0, r = beacons.contains { $0.scanResponse != nil } ? 1 : 0
        let sets = max(1, advertisers)
        let commands: Int
        if shareAddresses {
            commands = sets * (1 + r)
        } else if usesExtendedSets(caps) {
            commands = 2 * ((sets + 62) / 63) + sets * (2 + p + r)
        } else {
            commands = 4 + p + r
        }
        let time = commandTime ?? max(Self.assumedCommandTime, caps.commandTime ?? Self.assumedCommandTime)
        return TurnTiming(commandTime: time, commands: commands, sharedAddress: shareAddresses)
    }

    /// The shortest turn on `caps`: one advertising event at the controller's fastest interval, and
    /// the turn's commands and one advDelay before it (see ``TurnTiming/shortestTurn``).
    func shortestTurn(on caps: ControllerCapabilities, advertisers: Int, beacons: [BeaconProfile] = []) -> Duration {
        max(caps.minimumNonConnectableInterval.duration, turnTiming(on: caps, advertisers: advertisers, beacons: beacons).shortestTurn)
    }

    /// How many controllers like `controllers` it takes to keep `count` beacons on air at least
    /// once per goal; nil when even one beacon per advertiser cannot meet it.
    func adaptersNeeded(for count: Int, on controllers: [ControllerCapabilities]) -> Int? {
        let perAdapter = controllers.map(beaconCapacity(of:))
        let capacity = perAdapter.reduce(0, +) / controllers.count
        guard capacity > 0 else { return nil }
        return (count + capacity - 1) / capacity
    }

    /// Beacons per controller, in proportion to how many each can keep on air at once, so that a
    /// fleet that fits in the sets of all controllers together rotates nowhere. A beacon stays on
    /// the adapter it was on (`kept`) while that adapter's share has room; the others fill the
    /// shares in order.
    func split(_ beacons: [BeaconProfile], across controllers: [ControllerCapabilities],
               keeping kept: [String: Placement] = [:]) -> [[BeaconProfile]] {
        let capacity = controllers.map { max(1, usableSets($0)) }
        let total = capacity.reduce(0, +)
        var counts = capacity.map { beacons.count * $0 / total }
        var left = beacons.count - counts.reduce(0, +)
        var i = 0
        while left > 0 { counts[i % counts.count] += 1; left -= 1; i += 1 }
        var out: [[BeaconProfile]] = Array(repeating: [], count: controllers.count)
        var rest: [BeaconProfile] = []
        for b in beacons {
            if let adapter = kept[b.name]?.adapter, let k = controllers.firstIndex(where: { $0.adapter == adapter }), out[k].count < counts[k] {
                out[k].append(b)
            } else {
                rest.append(b)
            }
        }
        var k = 0
        for b in rest {
            while out[k].count >= counts[k] { k += 1 }
            out[k].append(b)
        }
        return out
    }

    /// Whether beacons go on `caps`'s controller through extended advertising sets (else
    /// through its one legacy advertiser): fixed for a run, since a controller refuses the other
    /// family of commands until its next reset.
    public func usesExtendedSets(_ caps: ControllerCapabilities) -> Bool {
        caps.hasIndependentAdvertisers && !forceLegacy
    }

    /// How many advertisers this planner uses on `caps`'s controller (beyond them, beacons take turns).
    public func usableSets(_ caps: ControllerCapabilities) -> Int {
        guard usesExtendedSets(caps) else { return 1 }
        // Handles run 0…0xEF, so at most 240 sets whatever the controller says.
        return min(caps.advertisingSets, maximumSets ?? .max, Int(HCIValidation.maximumAdvertisingHandle) + 1)
    }

    func planOne(_ beacons: [BeaconProfile], on caps: ControllerCapabilities, keeping previous: AdapterPlan? = nil,
                 warnings: inout [TermedText]) -> AdapterPlan {
        let extended = usesExtendedSets(caps)
        let sets = usableSets(caps)
        // A controller keeps its family of commands for a run; a plan of the other family (a
        // planner with other settings) has nothing to keep.
        let before = previous.flatMap { ($0.mode != .legacy) == extended ? $0.advertisers : nil } ?? []
        var advertisers: [Advertiser] = []
        if extended {
            advertisers = Self.deal(beacons, over: sets, keeping: before)
        } else {
            advertisers = Self.deal(beacons, over: 1, keeping: before)
            let powered = beacons.filter { $0.txPower != nil }.map(\.name)
            if !powered.isEmpty {
                warnings.append(Self.group(powered) { "\(Plural.verb($0, singular: "asks", plural: "ask")) for a tx_power, which is ignored: legacy advertising cannot set the radio's output power" })
            }
        }
        let rotates = advertisers.contains { $0.beacons.count > 1 }
        if !caps.allowsFastLegacyAdvertising {
            // A rotating beacon's interval is chosen below, at least the controller's minimum.
            let tooFast = beacons.filter { AdvertisingInterval(milliseconds: $0.intervalMilliseconds) < AdvertisingInterval.pre5NonConnectableMinimum }
            if !tooFast.isEmpty {
                let outcome = rotates ? "; taking turns, they go on air at 100 ms" : ""
                let refuser = caps.claimsFastAdvertisingFalsely
                    ? "this controller (\(caps.model?.title ?? "a known model")) refuses for non-connectable advertising although it claims Bluetooth \(caps.hciVersion.name ?? "5.0")"
                    : "a Bluetooth \(caps.hciVersion) controller refuses for non-connectable advertising (5.0 or later needed)"
                warnings.append(Self.group(tooFast.map(\.name)) { "\(Plural.verb($0, singular: "asks", plural: "ask")) for an interval below 100 ms, which \(refuser)\(outcome)" })
            }
        }
        if shareAddresses {
            for i in advertisers.indices where advertisers[i].beacons.count > 1 {
                advertisers[i].sharedAddress = Self.keptSharedAddress(of: advertisers[i], among: advertisers, before: before)
                    ?? advertisers[i].beacons[0].address
            }
        }
        let mode: AdapterPlan.Mode = !extended ? .legacy : (beacons.count > sets ? .extendedRotation : .extendedSets)
        var plan = AdapterPlan(capabilities: caps, mode: mode, advertisers: advertisers,
                               slotDuration: slotDuration ?? Self.defaultSlot(for: beacons))
        let timing = turnTiming(on: caps, advertisers: advertisers.count, beacons: beacons)
        plan.turnTiming = timing
        guard rotates else { return plan }
        // Turns short enough that each beacon's next turn comes within the goal (the time model's
        // bound, see TurnTiming), but no shorter than their commands and one event, and no longer
        // than three of the longest interval.
        let turns = advertisers.map(\.beacons.count).max() ?? 1
        let shortest = max(caps.minimumNonConnectableInterval.duration, timing.shortestTurn)
        if slotDuration == nil {
            let turn = max(shortest, min(Self.defaultSlot(for: beacons), timing.longestTurn(meeting: maximumSilence, turns: turns)))
            // Whole microseconds, as the plan shows them.
            plan.slotDuration = .microseconds(Int64((turn / .microseconds(1)).rounded(.up)))
        }
        // A set restarted for each turn (its own address) sends its first event at the enable
        // whatever its interval, so its beacons keep their profiles' intervals. A set that stays
        // enabled (a shared address: only its data changes) has events at a phase of its own: its
        // interval comes down so that an event and its advDelay fit within each turn's data.
        if shareAddresses {
            let cap = AdvertisingInterval(atMost: plan.slotDuration - TurnTiming.hostSlack - timing.commandsTime - TurnTiming.advertisingDelay)
            plan.rotationIntervalCap = max(caps.minimumNonConnectableInterval, cap)
        }
        return plan
    }
}

