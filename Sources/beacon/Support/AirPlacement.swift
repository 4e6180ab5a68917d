// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import VirtualController

/// Tells the shared virtual air where the beacons of a run are (their profiles' `position:`), so
/// receivers in other processes get RSSI from the distance (see ``AirPathLoss``). Beacons are
/// recognised by the advertising data the engine sends for them.
enum AirPlacement {
    static func place(_ beacons: [BeaconProfile], on connections: [AdapterConnection]) {
        for link in connections.compactMap(\.airLink) {
            for beacon in beacons {
                guard let p = beacon.position else { continue }
                let data = AdvertisingSetConfiguration(handle: 0, beacon: beacon).data
                link.place(data: Array(data), at: AirPoint(x: p.x, y: p.y, z: p.z ?? 0))
            }
        }
    }
}
