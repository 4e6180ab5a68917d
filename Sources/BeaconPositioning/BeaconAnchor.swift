// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import BeaconRadio

/// A beacon of known position: what ranges are measured to.
public struct BeaconAnchor: Hashable, Sendable {
    public var name: String
    public var key: BeaconKey
    /// Where it is mounted, its height as z (ranges are slant ranges to it).
    public var position: Point
    /// dBm at 1 m, from the fleet file (a received payload's own value takes precedence).
    public var measuredPower: Int8

    public init(name: String, key: BeaconKey, position: Point, measuredPower: Int8) {
        self.name = name
        self.key = key
        self.position = position
        self.measuredPower = measuredPower
    }

    /// The anchors of a fleet: every beacon with a `position:`, at its height (`z`, default 0).
    /// The fix is on the floor plan at the receiver's height (BeaconProfiles' `BeaconFleet.receiverHeight`).
    public static func anchors(of fleet: BeaconFleet) -> [BeaconAnchor] {
        fleet.beacons.compactMap { profile in
            guard let p = profile.position, let key = profile.beacon.key, let power = profile.beacon.powerAt1m else { return nil }
            return BeaconAnchor(name: profile.name, key: key, position: p, measuredPower: power)
        }
    }
}
