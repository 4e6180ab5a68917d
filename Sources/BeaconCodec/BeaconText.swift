// SPDX-License-Identifier: GPL-2.0-or-later

/// How tables and comment lines show a beacon of any format (the CLI's and any other front
/// end's): its identity in the words of its format, and the power it advertises (the one number
/// each format calibrates with).
public enum BeaconText {
    /// iBeacon `UUID major minor` (as always); AltBeacon its ID; Eddystone-UID `namespace
    /// instance`; Eddystone-URL the URL; TLM its counters.
    public static func identity(_ beacon: AnyBeacon) -> String {
        switch beacon {
        case .iBeacon(let b): return "\(b.uuid) \(b.major) \(b.minor)"
        case .altBeacon(let b): return "\(b.id)"
        case .eddystoneUID(let b): return "\(b.namespace) \(b.instance)"
        case .eddystoneURL(let b): return b.url
        case .eddystoneTLM(let b): return "count \(b.advertisingCount) uptime \(b.uptimeTenths / 10).\(b.uptimeTenths % 10) s"
        }
    }

    /// The same words for an identity.
    public static func identity(_ key: BeaconKey) -> String {
        switch key {
        case .iBeacon(let i): return "\(i.uuid) \(i.major) \(i.minor)"
        case .altBeacon(_, let id): return "\(id)"
        case .eddystoneUID(let n, let i): return "\(n) \(i)"
        case .eddystoneURL(let scheme, let encoded):
            return encoded.withUnsafeBytes { EddystoneURL(scheme: scheme, encoded: $0, txPower: 0)?.url } ?? Hex.string(encoded)
        }
    }

    /// dBm: measured power at 1 m (iBeacon), reference RSSI at 1 m (AltBeacon), TX power at 0 m
    /// (Eddystone UID and URL, marked `@0m`); empty for TLM.
    public static func power(_ beacon: AnyBeacon) -> String {
        switch beacon {
        case .iBeacon(let b): return String(b.measuredPower)
        case .altBeacon(let b): return String(b.referenceRSSI)
        case .eddystoneUID(let b): return "\(b.txPower)@0m"
        case .eddystoneURL(let b): return "\(b.txPower)@0m"
        case .eddystoneTLM: return "-"
        }
    }
}
