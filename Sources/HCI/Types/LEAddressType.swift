// SPDX-License-Identifier: GPL-2.0-or-later

/// Own_Address_Type: which address the controller advertises or scans with (Core Vol 4 Part E
/// §7.8.5).
@frozen
public struct LEOwnAddressType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let `public` = LEOwnAddressType(rawValue: 0x00)
    /// The random address set with LE Set Random Address / LE Set Advertising Set Random Address.
    public static let random = LEOwnAddressType(rawValue: 0x01)
    public static let resolvableOrPublic = LEOwnAddressType(rawValue: 0x02)
    public static let resolvableOrRandom = LEOwnAddressType(rawValue: 0x03)
}

/// An address type as peer parameters and advertising reports carry it.
@frozen
public struct LEAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let `public` = LEAddressType(rawValue: 0x00)
    public static let random = LEAddressType(rawValue: 0x01)
    /// A resolved private address whose identity is public (reports only).
    public static let publicIdentity = LEAddressType(rawValue: 0x02)
    /// A resolved private address whose identity is random static (reports only).
    public static let randomIdentity = LEAddressType(rawValue: 0x03)
    /// Extended reports: a resolvable private address the controller could not resolve.
    public static let unresolvedRandom = LEAddressType(rawValue: 0xFE)
    /// Extended reports: no address sent (anonymous advertising).
    public static let anonymous = LEAddressType(rawValue: 0xFF)

    public var description: String {
        switch rawValue {
        case 0x00: "public"
        case 0x01: "random"
        case 0x02: "public identity"
        case 0x03: "random identity"
        case 0xFE: "unresolved random"
        case 0xFF: "anonymous"
        default: "reserved (\(rawValue))"
        }
    }
}

/// An LE PHY as advertising parameters and reports carry it.
@frozen
public struct LEPhy: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Reports: no packets on the secondary channel.
    public static let none = LEPhy(rawValue: 0x00)
    public static let le1M = LEPhy(rawValue: 0x01)
    public static let le2M = LEPhy(rawValue: 0x02)
    public static let leCoded = LEPhy(rawValue: 0x03)
}
