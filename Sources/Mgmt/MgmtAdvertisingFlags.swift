// SPDX-License-Identifier: GPL-2.0-or-later

/// The 4-octet Flags of Add Advertising, Add Extended Advertising Parameters and the
/// Supported_Flags of Read Advertising Features — BlueZ doc/mgmt-api.txt, bits as in lib/mgmt.h
/// (MGMT_ADV_FLAG_* and MGMT_ADV_PARAM_*):
///
/// ```
/// 0 Switch into Connectable mode        9 Secondary Channel with LE Coded
/// 1 Advertise as Discoverable          10 Indicate tx power can be specified
/// 2 Advertise as Limited Discoverable  11 HW supports the advertising offload
/// 3 Add Flags field to Adv_Data        12 The Duration parameter should be used
/// 4 Add TX Power field to Adv_Data     13 The Timeout parameter should be used
/// 5 Add Appearance field to Scan_Rsp   14 The Interval parameters should be used
/// 6 Add Local Name in Scan_Rsp         15 The Tx Power parameter should be used
/// 7 Secondary Channel with LE 1M       16 The advertisement will contain a scan response
/// 8 Secondary Channel with LE 2M
/// ```
public struct MgmtAdvertisingFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let connectable = Self(rawValue: 1 << 0)
    public static let discoverable = Self(rawValue: 1 << 1)
    public static let limitedDiscoverable = Self(rawValue: 1 << 2)
    /// The kernel writes the Flags AD structure itself.
    public static let managedFlags = Self(rawValue: 1 << 3)
    public static let txPower = Self(rawValue: 1 << 4)
    public static let appearance = Self(rawValue: 1 << 5)
    public static let localName = Self(rawValue: 1 << 6)
    public static let secondary1M = Self(rawValue: 1 << 7)
    public static let secondary2M = Self(rawValue: 1 << 8)
    public static let secondaryCoded = Self(rawValue: 1 << 9)
    /// In Read Advertising Features: the controller can take a TX power.
    public static let canSetTxPower = Self(rawValue: 1 << 10)
    public static let hardwareOffload = Self(rawValue: 1 << 11)
    public static let useDuration = Self(rawValue: 1 << 12)
    public static let useTimeout = Self(rawValue: 1 << 13)
    public static let useIntervals = Self(rawValue: 1 << 14)
    public static let useTxPower = Self(rawValue: 1 << 15)
    public static let scanResponse = Self(rawValue: 1 << 16)

    /// Flags with which the kernel owns the Flags AD structure: it then refuses data that carries
    /// its own (net/bluetooth/mgmt.c, tlv_data_is_valid / flags_managed). beacon keeps the Flags
    /// structure it encodes and sets none of these, so phones see exactly the profile's bytes.
    public static let kernelManagesFlagsAD: Self = [.discoverable, .limitedDiscoverable, .managedFlags]

    /// lib/mgmt.h's names of the bits set, lowest first (btmgmt prints the same), e.g.
    /// `["connectable", "tx-power", "can-set-tx-power"]`.
    public var names: [String] {
        let all = ["connectable", "general-discoverable", "limited-discoverable", "managed-flags", "tx-power",
                   "scan-rsp-appearance", "scan-rsp-local-name", "sec-1m", "sec-2m", "sec-coded", "can-set-tx-power",
                   "hw-offload", "param-duration", "param-timeout", "param-intervals", "param-tx-power", "param-scan-rsp"]
        return (0..<32).compactMap { bit in
            guard rawValue & (1 << bit) != 0 else { return nil }
            return bit < all.count ? all[bit] : "bit \(bit)"
        }
    }

    /// "These flag bits are mutually exclusive and setting multiple will result in Invalid
    /// Parameter error."
    public static let secondaryChannels: Self = [.secondary1M, .secondary2M, .secondaryCoded]
}
