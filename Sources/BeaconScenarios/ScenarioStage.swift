// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconProfiles

/// Where a ``ScenarioPlayer`` puts each step's beacons: a `RunningFleet` on this host's
/// adapters, or any stage a more specific library implements (BeaconSite's puts them on a
/// site's radios through its controller). This module knows only the protocol: it depends on no
/// site, broker or transport.
public protocol ScenarioStage: Sendable {
    /// Posts the beacons that are on air from now on (only the difference goes on air); returns
    /// the update's generation, which increases with every update.
    func update(_ beacons: [BeaconProfile]) -> Int
    /// Waits until update `generation` (or a later one that replaced it) is on air, was
    /// refused, or the stage stopped.
    func settled(_ generation: Int) async -> RunningFleet.UpdateOutcome
}

extension RunningFleet: ScenarioStage {}
