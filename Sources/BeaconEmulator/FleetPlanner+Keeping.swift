// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles

/// Sticky placements: when a plan replaces the one on air (a scenario step, a walk, a reload),
/// a beacon that stays should keep its advertiser, its address and its turn, because moving it
/// to another set restarts it (a gap on air; on extended sets a disable and an enable), while
/// a beacon left where it was costs nothing when unchanged, or one data command when changed.
extension FleetPlanner {
    /// Where each beacon of `previous` was, by name, for the beacons of `beacons` it had; empty
    /// when there is no previous plan, or when names are not unique (a name is then no identity).
    static func keptPlacements(_ previous: FleetPlan?, for beacons: [BeaconProfile]) -> [String: Placement] {
        guard let previous else { return [:] }
        let names = Set(beacons.map(\.name))
        guard names.count == beacons.count else { return [:] }
        var out: [String: Placement] = [:]
        for p in previous.placements where names.contains(p.beacon.name) {
            guard out.updateValue(p, forKey: p.beacon.name) == nil else { return [:] }
        }
        return out
    }

    /// Deals `beacons` over advertisers with handles `0..<sets`: `min(sets, count)` of them carry
    /// beacons, and their shares differ by at most one beacon, except where beacons kept from
    /// `previous` make a share smaller (never larger than an even share: the rotation's cycle
    /// stays as short as dealing afresh would make it).
    ///
    /// A beacon stays on the advertiser it was on, in its old turn order, while that share has
    /// room; the advertisers that keep the most beacons carry the larger shares. The rest (new
    /// beacons, or ones that no longer fit) go round-robin over the advertisers with room, in
    /// handle order. With no previous plan this is plain round-robin over handles 0, 1, ….
    static func deal(_ beacons: [BeaconProfile], over sets: Int, keeping previous: [Advertiser]) -> [Advertiser] {
        let used = min(sets, beacons.count)
        guard used > 0 else { return [] }
        var byName: [String: BeaconProfile] = [:]
        for b in beacons { byName[b.name] = b }
        let unique = byName.count == beacons.count
        // Per handle: the beacons it carried that are still in the fleet, in their old order.
        var kept: [Int: [String]] = [:]
        if unique {
            for adv in previous where Int(adv.handle) < sets {
                let names = adv.beacons.map(\.name).filter { byName[$0] != nil }
                if !names.isEmpty { kept[Int(adv.handle)] = names }
            }
        }
        // The advertisers to use: those that keep the most beacons first, then the lowest handles.
        let ranked = (0..<sets).sorted { a, b in
            let ka = kept[a]?.count ?? 0, kb = kept[b]?.count ?? 0
            return ka != kb ? ka > kb : a < b
        }
        let active = Array(ranked.prefix(used))
        let even = beacons.count / used, larger = beacons.count % used
        var size: [Int: Int] = [:]
        for (rank, h) in active.enumerated() { size[h] = even + (rank < larger ? 1 : 0) }
        var carried: [Int: [BeaconProfile]] = [:]
        var placed = Set<String>()
        for h in active {
            carried[h] = (kept[h] ?? []).prefix(size[h]!).map { byName[$0]! }
            for b in carried[h]! { placed.insert(b.name) }
        }
        let handles = active.sorted()
        var next = 0
        for b in beacons where !placed.contains(b.name) {
            while carried[handles[next % used]]!.count >= size[handles[next % used]]! { next += 1 }
            carried[handles[next % used]]!.append(b)
            next += 1
        }
        return handles.map { Advertiser(handle: UInt8($0), beacons: carried[$0]!) }
    }

    /// The shared address `advertiser` had in `before` (`--share-address`), unless a beacon
    /// now on another advertiser goes on air from it (the address would then be on air twice).
    static func keptSharedAddress(of advertiser: Advertiser, among advertisers: [Advertiser], before: [Advertiser]) -> BluetoothAddress? {
        guard let address = before.first(where: { $0.handle == advertiser.handle })?.sharedAddress else { return nil }
        let elsewhere = advertisers.contains { other in
            other.handle != advertiser.handle && (other.sharedAddress == address || (other.beacons.count == 1 && other.beacons[0].address == address))
        }
        return elsewhere ? nil : address
    }
}
