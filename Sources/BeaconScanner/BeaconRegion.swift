// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A set of beacons named by identity constraints, like `CLBeaconRegion`: a UUID, a UUID and
/// major, or a UUID, major and minor. Unlike CoreLocation, the UUID may be left out too: the
/// region of every iBeacon (what `beacon scan` watches without `--uuid`).
public struct BeaconRegion: Hashable, Sendable, CustomStringConvertible {
    public let uuid: BeaconUUID?
    public let major: UInt16?
    public let minor: UInt16?

    /// Why constraints do not make a region.
    public enum Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        case majorWithoutUUID
        case minorWithoutMajor

        public var description: String {
            switch self {
            case .majorWithoutUUID: "a major needs a UUID"
            case .minorWithoutMajor: "a minor needs a major"
            }
        }
    }

    /// Every beacon (of every format).
    public static let any = BeaconRegion(validated: nil, nil, nil)

    /// A region; a major needs a UUID and a minor needs a major, as in CoreLocation.
    public init(uuid: BeaconUUID?, major: UInt16? = nil, minor: UInt16? = nil) throws(Invalid) {
        if major != nil, uuid == nil { throw .majorWithoutUUID }
        if minor != nil, major == nil { throw .minorWithoutMajor }
        self.init(validated: uuid, major, minor)
    }

    private init(validated uuid: BeaconUUID?, _ major: UInt16?, _ minor: UInt16?) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Whether a beacon of any format belongs to the region: ``any`` holds them all; a UUID's
    /// region only iBeacons (CoreLocation's regions are iBeacon regions).
    public func contains(_ key: BeaconKey) -> Bool {
        if case .iBeacon(let identity) = key { return contains(identity) }
        return uuid == nil
    }

    /// Whether an iBeacon with `identity` belongs to the region.
    public func contains(_ identity: BeaconIdentity) -> Bool {
        if let uuid, uuid != identity.uuid { return false }
        if let major, major != identity.major { return false }
        if let minor, minor != identity.minor { return false }
        return true
    }

    /// `any`, or the constraints: `E2C5… major 1 minor 2`.
    public var description: String {
        guard let uuid else { return "any" }
        var text = uuid.description
        if let major { text += " major \(major)" }
        if let minor { text += " minor \(minor)" }
        return text
    }
}
