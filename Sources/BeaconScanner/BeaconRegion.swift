// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A set of beacons named by identity constraints, like `CLBeaconRegion` and the Android Beacon
/// Library's `Region`: a UUID, a UUID and major, or a UUID, major and minor (iBeacons and
/// AltBeacons); or an Eddystone-UID namespace, and an instance of it. With no constraint: every
/// beacon of every format (what `beacon scan` watches without `--uuid` or `--namespace`).
public struct BeaconRegion: Hashable, Sendable, CustomStringConvertible {
    /// The proximity UUID of iBeacons and the first 16 bytes of AltBeacons' IDs.
    public let uuid: BeaconUUID?
    public let major: UInt16?
    public let minor: UInt16?
    /// An Eddystone-UID namespace (10 bytes), for a region of Eddystone beacons.
    public let namespace: EddystoneNamespace?
    /// An Eddystone-UID instance (6 bytes; needs ``namespace``).
    public let instance: EddystoneInstance?

    /// Why constraints do not make a region.
    public enum Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        case majorWithoutUUID
        case minorWithoutMajor
        case instanceWithoutNamespace

        public var description: String {
            switch self {
            case .majorWithoutUUID: "a major needs a UUID"
            case .minorWithoutMajor: "a minor needs a major"
            case .instanceWithoutNamespace: "an instance needs a namespace"
            }
        }
    }

    /// Every beacon (of every format).
    public static let any = BeaconRegion(validated: nil, nil, nil, nil, nil)

    /// A region by UUID, major and minor: a major needs a UUID and a minor needs a major, as in
    /// CoreLocation. It holds iBeacons and AltBeacons, an AltBeacon's 20-byte ID read as UUID,
    /// major and minor as the Android Beacon Library reads it (id1, id2, id3).
    public init(uuid: BeaconUUID?, major: UInt16? = nil, minor: UInt16? = nil) throws(Invalid) {
        if major != nil, uuid == nil { throw .majorWithoutUUID }
        if minor != nil, major == nil { throw .minorWithoutMajor }
        self.init(validated: uuid, major, minor, nil, nil)
    }

    /// A region of Eddystone-UID beacons: a namespace, and optionally one instance of it.
    public init(namespace: EddystoneNamespace, instance: EddystoneInstance? = nil) {
        self.init(validated: nil, nil, nil, namespace, instance)
    }

    private init(validated uuid: BeaconUUID?, _ major: UInt16?, _ minor: UInt16?, _ namespace: EddystoneNamespace?,
                 _ instance: EddystoneInstance?) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.namespace = namespace
        self.instance = instance
    }

    /// Whether a beacon of any format belongs to the region: ``any`` holds them all; a UUID's
    /// region iBeacons and AltBeacons by UUID, major and minor; a namespace's region
    /// Eddystone-UID beacons by namespace and instance. An Eddystone-URL beacon has no identity
    /// but its URL: only ``any`` holds it.
    public func contains(_ key: BeaconKey) -> Bool {
        if uuid == nil, namespace == nil { return true }
        switch key {
        case .iBeacon(let identity): return contains(identity)
        case .altBeacon(_, let id):
            return contains(BeaconIdentity(uuid: id.prefix, major: UInt16(id.suffix >> 16), minor: UInt16(id.suffix & 0xFFFF)))
        case .eddystoneUID(let n, let i):
            guard let namespace, namespace == n else { return false }
            return instance.map { $0 == i } ?? true
        case .eddystoneURL: return false
        }
    }

    /// Whether a beacon with `identity` (an iBeacon's, or an AltBeacon's ID read as one) belongs to the region.
    public func contains(_ identity: BeaconIdentity) -> Bool {
        guard namespace == nil else { return false }
        if let uuid, uuid != identity.uuid { return false }
        if let major, major != identity.major { return false }
        if let minor, minor != identity.minor { return false }
        return true
    }

    /// `any`, or the constraints: `E2C5… major 1 minor 2`, `namespace 0011… instance 0000…01`.
    public var description: String {
        if let namespace { return "namespace \(namespace)" + (instance.map { " instance \($0)" } ?? "") }
        guard let uuid else { return "any" }
        var text = uuid.description
        if let major { text += " major \(major)" }
        if let minor { text += " minor \(minor)" }
        return text
    }
}
