// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import VirtualController

/// Tells the shared virtual air where the beacons of a run are (their profiles' `position:`), so
/// receivers in other processes get RSSI from the distance (see ``AirPathLoss``). Beacons are
/// recognised by their address, which stays when their data changes.
enum AirPlacement {
    static func place(_ beacons: [BeaconProfile], on connections: [AdapterConnection]) {
        for link in connections.compactMap(\.airLink) {
            for beacon in beacons {
                guard let p = beacon.position else { continue }
                link.place(address: beacon.address, at: p)
            }
        }
    }
}
