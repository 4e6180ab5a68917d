// SPDX-License-Identifier: GPL-2.0-or-later

/// What tells one iBeacon from another: proximity UUID, major and minor (as CoreLocation's
/// `CLBeaconIdentityConstraint` does). The measured power is calibration, not identity.
public struct BeaconIdentity: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// The identity of a decoded beacon.
    public init(_ beacon: IBeacon) {
        self.init(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor)
    }

    public static func < (a: BeaconIdentity, b: BeaconIdentity) -> Bool {
        (a.uuid, a.major, a.minor) < (b.uuid, b.major, b.minor)
    }

    public var description: String { "\(uuid) \(major) \(minor)" }
}
