// SPDX-License-Identifier: GPL-2.0-or-later

/// The events the controller may send (Set Event Mask, Core Vol 4 Part E §7.3.1).
@frozen
public struct HCIEventMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let hardwareError = HCIEventMask(rawValue: 1 << 15)
    /// Required for any LE subevent (advertising reports, set terminated …).
    public static let leMeta = HCIEventMask(rawValue: 1 << 61)
    /// The controller's value after a reset.
    public static let `default` = HCIEventMask(rawValue: 0x0000_1FFF_FFFF_FFFF)
}

/// The LE subevents the controller may send (LE Set Event Mask, Core Vol 4 Part E §7.8.1).
@frozen
public struct LEEventMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let connectionComplete = LEEventMask(rawValue: 1 << 0)
    public static let advertisingReport = LEEventMask(rawValue: 1 << 1)
    public static let extendedAdvertisingReport = LEEventMask(rawValue: 1 << 12)
    public static let scanTimeout = LEEventMask(rawValue: 1 << 16)
    public static let advertisingSetTerminated = LEEventMask(rawValue: 1 << 17)
    public static let scanRequestReceived = LEEventMask(rawValue: 1 << 18)
    /// The controller's value after a reset (bits 0–4).
    public static let `default` = LEEventMask(rawValue: 0x1F)
}
