// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import HCI

/// One beacon as `encode` prints it: a profile's beacon, or one given with
/// `--uuid/--major/--minor` (then without `--address` it advertises from the random static
/// address derived from its identity, as `advertise` and `cycle` do for the same options).
struct BeaconTransmission {
    /// The beacon as a profile describes it (for command-line beacons: built from the options).
    var profile: BeaconProfile
    /// Whether it came from the command line rather than a profile file (it then has no name).
    var fromCommandLine: Bool

    /// The profile's name for the beacon; `nil` for one given on the command line.
    var name: String? { fromCommandLine ? nil : profile.name }
    var beacon: AnyBeacon { profile.beacon }
    var flags: BeaconFlags { profile.flags }
    /// The random static address to advertise from (given, or derived from the identity).
    var address: BluetoothAddress? { profile.address }
    /// The advertising data (for an iBeacon 30 bytes with flags, 27 without).
    var payload: AdvertisingPayload { profile.advertisingData }

    /// A profile's beacon: profiles always carry an address (given, or derived), so it
    /// advertises from that random static address.
    init(profile: BeaconProfile) {
        self.profile = profile
        self.fromCommandLine = false
    }

    /// A beacon given on the command line.
    init(commandLine profile: BeaconProfile) {
        self.profile = profile
        self.fromCommandLine = true
    }
}
