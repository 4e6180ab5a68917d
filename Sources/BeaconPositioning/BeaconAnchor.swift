// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles

/// The identity an iBeacon is matched by: UUID, major, minor.
public struct BeaconKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public init(_ beacon: IBeacon) { self.init(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor) }

    public static func < (a: Self, b: Self) -> Bool { (a.uuid, a.major, a.minor) < (b.uuid, b.major, b.minor) }

    public var description: String { "\(uuid) \(major)/\(minor)" }
}

/// A beacon of known position: what ranges are measured to.
public struct BeaconAnchor: Hashable, Sendable {
    public var name: String
    public var key: BeaconKey
    public var position: PlanePoint
    /// dBm at 1 m, from the fleet file (a received payload's own value takes precedence).
    public var measuredPower: Int8

    public init(name: String, key: BeaconKey, position: PlanePoint, measuredPower: Int8) {
        self.name = name
        self.key = key
        self.position = position
        self.measuredPower = measuredPower
    }

    /// The anchors of a fleet: every beacon with a `position:` (z is ignored: the plan is 2-D).
    public static func anchors(of fleet: BeaconFleet) -> [BeaconAnchor] {
        fleet.beacons.compactMap { profile in
            guard let p = profile.position else { return nil }
            return BeaconAnchor(name: profile.name, key: BeaconKey(profile.beacon), position: PlanePoint(x: p.x, y: p.y),
                                measuredPower: profile.beacon.measuredPower)
        }
    }
}
