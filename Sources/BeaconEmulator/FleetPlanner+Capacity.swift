// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec

extension FleetPlanner {
    /// How many beacons one controller like `caps` keeps on air within the coverage goal
    /// (``maximumSilence``): its usable advertisers times the turns each fits in the goal. What a
    /// site promises per radio, and what `adaptersNeeded(for:on:)` divides by.
    public func beaconCapacity(of caps: ControllerCapabilities) -> Int {
        let sets = usableSets(caps)
        let timing = turnTiming(on: caps, advertisers: sets)
        let shortest = shortestTurn(on: caps, advertisers: sets)
        // The most turns per cycle whose longest turn the goal allows is still a turn.
        var turns = max(1, Int(maximumSilence / shortest))
        while turns > 1, timing.longestTurn(meeting: maximumSilence, turns: turns) < shortest { turns -= 1 }
        guard timing.longestTurn(meeting: maximumSilence, turns: turns) >= shortest else { return 0 }
        return sets * turns
    }
}
