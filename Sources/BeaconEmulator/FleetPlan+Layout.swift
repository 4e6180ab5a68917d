// SPDX-License-Identifier: GPL-2.0-or-later

extension FleetPlan {
    /// Whether `other` puts the same beacons in the same places: each on the same adapter and
    /// advertiser, in the same turn of the same rotation, at the same interval. Plans that differ
    /// only in what the beacons send (a new major, measured power or TX power: a scenario's
    /// step, a walk's update) have the same layout; a beacon that appears or goes, moves, or
    /// changes its interval changes it. `play` and `walk` show a plan again only when it does.
    public func hasSameLayout(as other: FleetPlan) -> Bool {
        let (mine, theirs) = (placements, other.placements)
        return mine.count == theirs.count && zip(mine, theirs).allSatisfy { a, b in
            a.beacon.name == b.beacon.name && a.adapter == b.adapter && a.advertiser == b.advertiser && a.mode == b.mode
                && a.slot == b.slot && a.slots == b.slots && a.slotDuration == b.slotDuration && a.cycle == b.cycle
                && a.interval == b.interval
        }
    }
}
