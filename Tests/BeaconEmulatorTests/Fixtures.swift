// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

let testUUID = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

/// `count` beacons with minors 0…count−1, each with its derived address.
func beacons(_ count: Int, interval: Double = 100, txPower: Int8? = nil) -> [BeaconProfile] {
    (0..<count).map { i in
        BeaconProfile(name: "b\(i)", beacon: IBeacon(uuid: testUUID, major: 1, minor: UInt16(i), measuredPower: -59),
                      intervalMilliseconds: interval, txPower: txPower)
    }
}

func extended(_ sets: Int, adapter: AdapterName = "test") -> ControllerCapabilities {
    .assumedExtended(adapter: adapter, sets: sets)
}

/// Names of the commands, in order, for compact expectations.
func names(_ commands: [any HCICommand]) -> [String] { commands.map { type(of: $0).name } }
