// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconProfiles
import HCI

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

    public init(forceLegacy: Bool = false, slotDuration: Duration? = nil, maximumSets: Int? = nil, shareAddresses: Bool = false) {
        self.forceLegacy = forceLegacy
        self.slotDuration = slotDuration
        self.maximumSets = maximumSets
        self.shareAddresses = shareAddresses
    }

    /// A rotating beacon should get at least three advertising events per turn, so a scanner
    /// that misses one or two (channel hopping, its own scan window) still sees it; and no turn
    /// is shorter than 100 ms, to keep the command rate sane.
    public static func defaultSlot(for beacons: [BeaconProfile]) -> Duration {
        let longest = beacons.map(\.intervalMilliseconds).max() ?? 100
        return .milliseconds(max(100, 3 * longest))
    }

    public func plan(_ beacons: [BeaconProfile], on controllers: [ControllerCapabilities]) -> FleetPlan {
        precondition(!controllers.isEmpty, "a plan needs at least one controller")
        var warnings: [String] = []
        let shares = split(beacons, across: controllers)
        var adapters: [AdapterPlan] = []
        for (caps, share) in zip(controllers, shares) where !share.isEmpty {
            adapters.append(planOne(share, on: caps, warnings: &warnings))
        }
        for p in FleetPlan(adapters: adapters, warnings: []).placements where p.longestGap > .seconds(1) {
            warnings.append("\(p.beacon.name): on air \(formatted(p.slotDuration)) out of every \(formatted(p.cycle)); a scanner may not see it for \(formatted(p.longestGap)) (fewer than once a second): add adapters, or advertise fewer beacons")
        }
        return FleetPlan(adapters: adapters, warnings: warnings)
    }

    /// Beacons per controller, in proportion to how many each can keep on air at once, so that a
    /// fleet that fits in the sets of all controllers together rotates nowhere.
    func split(_ beacons: [BeaconProfile], across controllers: [ControllerCapabilities]) -> [[BeaconProfile]] {
        let capacity = controllers.map { max(1, usableSets($0)) }
        let total = capacity.reduce(0, +)
        var counts = capacity.map { beacons.count * $0 / total }
        var left = beacons.count - counts.reduce(0, +)
        var i = 0
        while left > 0 { counts[i % counts.count] += 1; left -= 1; i += 1 }
        var out: [[BeaconProfile]] = []
        var start = 0
        for c in counts {
            out.append(Array(beacons[start..<(start + c)]))
            start += c
        }
        return out
    }

    /// Whether beacons go on `caps`'s controller through extended advertising sets (else
    /// through its one legacy advertiser): fixed for a run, since a controller refuses the other
    /// family of commands until its next reset.
    public func usesExtendedSets(_ caps: ControllerCapabilities) -> Bool {
        caps.hasExtendedAdvertising && !forceLegacy
    }

    func usableSets(_ caps: ControllerCapabilities) -> Int {
        guard usesExtendedSets(caps) else { return 1 }
        // Handles run 0…0xEF, so at most 240 sets whatever the controller says.
        return min(caps.advertisingSets, maximumSets ?? .max, Int(HCIValidation.maximumAdvertisingHandle) + 1)
    }

    func planOne(_ beacons: [BeaconProfile], on caps: ControllerCapabilities, warnings: inout [String]) -> AdapterPlan {
        let extended = usesExtendedSets(caps)
        let sets = usableSets(caps)
        var advertisers: [Advertiser] = []
        if extended {
            let used = min(sets, beacons.count)
            advertisers = (0..<used).map { Advertiser(handle: UInt8($0), beacons: []) }
            // Deal beacons round-robin so each set's share differs by at most one.
            for (i, b) in beacons.enumerated() { advertisers[i % used].beacons.append(b) }
        } else {
            advertisers = [Advertiser(handle: 0, beacons: beacons)]
            for b in beacons where b.txPower != nil {
                warnings.append("\(b.name): tx_power \(b.txPower!) dBm is ignored: legacy advertising cannot set the radio's output power")
            }
        }
        if !caps.allowsFastLegacyAdvertising {
            for b in beacons where AdvertisingInterval(milliseconds: b.intervalMilliseconds) < AdvertisingInterval.pre5NonConnectableMinimum {
                warnings.append("\(b.name): interval \(b.intervalMilliseconds) ms is below 100 ms, which a Bluetooth \(caps.hciVersion) controller refuses for non-connectable advertising (5.0 or later needed)")
            }
        }
        if shareAddresses {
            for i in advertisers.indices where advertisers[i].beacons.count > 1 {
                advertisers[i].sharedAddress = advertisers[i].beacons[0].address
            }
        }
        let mode: AdapterPlan.Mode = !extended ? .legacy : (beacons.count > sets ? .extendedRotation : .extendedSets)
        return AdapterPlan(capabilities: caps, mode: mode, advertisers: advertisers,
                           slotDuration: slotDuration ?? Self.defaultSlot(for: beacons))
    }
}

func formatted(_ d: Duration) -> String {
    let s = d.seconds
    return s < 1 ? "\(Int((s * 1000).rounded())) ms" : "\(((s * 100).rounded() / 100)) s"
}
