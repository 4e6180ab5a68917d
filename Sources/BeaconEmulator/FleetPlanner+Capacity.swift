// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec

extension FleetPlanner {
    /// How many beacons one controller like `caps` keeps on air within the coverage goal
    /// (``maximumSilence``): its usable advertisers times the turns each fits in the goal. What a
    /// site promises per radio, and what `adaptersNeeded(for:on:)` divides by.
    public func beaconCapacity(of caps: ControllerCapabilities) -> Int {
        let sets = usableSets(caps)
        let turns = Int(maximumSilence.seconds / shortestTurn(on: caps, advertisers: sets).seconds)
        return sets * max(turns, 0)
    }
}
