// SPDX-License-Identifier: GPL-2.0-or-later

/// Advertising_Type of LE Set Advertising Parameters (Core Vol 4 Part E §7.8.5).
@frozen
public struct LEAdvertisingType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ADV_IND: connectable and scannable undirected.
    public static let connectableUndirected = LEAdvertisingType(rawValue: 0x00)
    /// ADV_DIRECT_IND, high duty cycle (intervals are ignored).
    public static let connectableHighDutyCycleDirected = LEAdvertisingType(rawValue: 0x01)
    /// ADV_SCAN_IND: scannable undirected.
    public static let scannableUndirected = LEAdvertisingType(rawValue: 0x02)
    /// ADV_NONCONN_IND: non-connectable undirected, what an iBeacon uses.
    public static let nonConnectableUndirected = LEAdvertisingType(rawValue: 0x03)
    /// ADV_DIRECT_IND, low duty cycle.
    public static let connectableLowDutyCycleDirected = LEAdvertisingType(rawValue: 0x04)
}

/// Primary_Advertising_Channel_Map / Advertising_Channel_Map: which of channels 37, 38 and 39.
@frozen
public struct LEAdvertisingChannelMap: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let channel37 = LEAdvertisingChannelMap(rawValue: 1 << 0)
    public static let channel38 = LEAdvertisingChannelMap(rawValue: 1 << 1)
    public static let channel39 = LEAdvertisingChannelMap(rawValue: 1 << 2)
    public static let all: LEAdvertisingChannelMap = [.channel37, .channel38, .channel39]
}

/// Advertising_Filter_Policy (Core Vol 4 Part E §7.8.5): whose scan and connect requests to serve.
@frozen
public struct LEAdvertisingFilterPolicy: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Anyone may scan or connect.
    public static let acceptAll = LEAdvertisingFilterPolicy(rawValue: 0x00)
    public static let filterScanRequests = LEAdvertisingFilterPolicy(rawValue: 0x01)
    public static let filterConnectionRequests = LEAdvertisingFilterPolicy(rawValue: 0x02)
    public static let filterBoth = LEAdvertisingFilterPolicy(rawValue: 0x03)
}

/// LE_Scan_Type / Scan_Type: passive listens only, active also sends scan requests.
@frozen
public struct LEScanType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passive = LEScanType(rawValue: 0x00)
    public static let active = LEScanType(rawValue: 0x01)
}
