// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A user's own convention: an asset number carried in an iBeacon's major (high 16 bits) and
/// minor (low 16 bits) under the organisation's UUID.
public struct AssetTag: Hashable, Sendable {
    public var number: UInt32

    public init(number: UInt32) { self.number = number }

    /// The organisation's UUID every tag advertises (an example UUID).
    public static let organisation = BeaconUUID("2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")!

    /// The iBeacon this tag advertises, measured power `power` dBm at 1 m.
    public func beacon(measuredPower power: Int8 = -59) -> IBeacon {
        IBeacon(uuid: Self.organisation, major: UInt16(number >> 16), minor: UInt16(number & 0xFFFF), measuredPower: power)
    }

    /// The tag an advertisement carries, or nil if it is no tag of ours (not an iBeacon, or
    /// another organisation's).
    public init?(advertisingData bytes: [UInt8]) {
        guard let beacon = try? IBeacon(decoding: bytes), beacon.uuid == Self.organisation else { return nil }
        number = UInt32(beacon.major) << 16 | UInt32(beacon.minor)
    }
}
