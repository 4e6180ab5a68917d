// SPDX-License-Identifier: GPL-2.0-or-later

/// What tells one beacon from another, whatever its format: an iBeacon's UUID, major and minor;
/// an AltBeacon's 20-byte ID (and its manufacturer); an Eddystone-UID's namespace and instance;
/// an Eddystone-URL's URL. Calibration (measured power, TX power at 0 m) is not identity, and a
/// TLM frame has none (``AnyBeacon/key`` is `nil` for it).
public enum BeaconKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    case iBeacon(BeaconIdentity)
    case altBeacon(manufacturerID: UInt16, id: AltBeaconID)
    case eddystoneUID(namespace: EddystoneNamespace, instance: EddystoneInstance)
    /// The URL as sent (scheme and encoded bytes): two spellings of one URL are one beacon.
    case eddystoneURL(scheme: UInt8, encoded: [UInt8])

    public var format: BeaconFormat {
        switch self {
        case .iBeacon: return .iBeacon
        case .altBeacon: return .altBeacon
        case .eddystoneUID: return .eddystoneUID
        case .eddystoneURL: return .eddystoneURL
        }
    }

    public var description: String {
        switch self {
        case .iBeacon(let i): return "ibeacon \(i)"
        case .altBeacon(let m, let id): return "altbeacon \(id) manufacturer 0x\(BigEndianBytes.hex(UInt64(m), count: 2))"
        case .eddystoneUID(let n, let i): return "eddystone-uid \(n) \(i)"
        case .eddystoneURL(let scheme, let encoded):
            let bytes = encoded
            let url = bytes.withUnsafeBytes { EddystoneURL(scheme: scheme, encoded: $0, txPower: 0)?.url }
            return "eddystone-url \(url ?? Hex.string(bytes))"
        }
    }

    /// Formats in ``BeaconFormat`` order, then each format's own order.
    public static func < (a: BeaconKey, b: BeaconKey) -> Bool {
        switch (a, b) {
        case (.iBeacon(let x), .iBeacon(let y)): return x < y
        case (.altBeacon(let m, let x), .altBeacon(let n, let y)): return (x, m) < (y, n)
        case (.eddystoneUID(let n, let i), .eddystoneUID(let m, let j)): return (n, i) < (m, j)
        case (.eddystoneURL(let s, let x), .eddystoneURL(let t, let y)):
            return s != t ? s < t : x.lexicographicallyPrecedes(y)
        default:
            let order = BeaconFormat.allCases
            return order.firstIndex(of: a.format)! < order.firstIndex(of: b.format)!
        }
    }
}

extension AnyBeacon {
    /// The beacon's identity; `nil` for a TLM frame, which carries none.
    public var key: BeaconKey? {
        switch self {
        case .iBeacon(let b): return .iBeacon(BeaconIdentity(b))
        case .altBeacon(let b): return .altBeacon(manufacturerID: b.manufacturerID, id: b.id)
        case .eddystoneUID(let b): return .eddystoneUID(namespace: b.namespace, instance: b.instance)
        case .eddystoneURL(let b): return .eddystoneURL(scheme: b.scheme, encoded: b.encodedBytes)
        case .eddystoneTLM: return nil
        }
    }

    /// The received power at 1 m in dBm that ranging uses: an iBeacon's measured power, an
    /// AltBeacon's reference RSSI, an Eddystone frame's TX power at 0 m less 41 dB (the loss
    /// Eddystone's specification assumes over the first metre). `nil` for TLM.
    public var powerAt1m: Int8? {
        switch self {
        case .iBeacon(let b): return b.measuredPower
        case .altBeacon(let b): return b.referenceRSSI
        case .eddystoneUID(let b): return Int8(clamping: Int(b.txPower) - EddystoneFormat.lossOverFirstMetre)
        case .eddystoneURL(let b): return Int8(clamping: Int(b.txPower) - EddystoneFormat.lossOverFirstMetre)
        case .eddystoneTLM: return nil
        }
    }

    /// The power at 1 m of whatever beacon `data` carries (see ``powerAt1m``), decoded as a
    /// scanner does (extended-length payloads allowed); `nil` when the data holds no beacon
    /// with a power (not a beacon, or a TLM frame). The one rule the virtual air, ranging,
    /// `scan --save` and positioning share for "what is this beacon's RSSI at 1 m".
    public static func powerAt1m(advertisingData data: [UInt8]) -> Int8? {
        (try? AnyBeacon(decoding: data, options: .strictExtended))?.powerAt1m
    }

    /// The iBeacon, when this is one.
    public var iBeacon: IBeacon? {
        if case .iBeacon(let b) = self { return b }
        return nil
    }
}

// The fields a scenario or a walk changes on a running beacon, for every format that has them
// (one place, so a new format says here what it carries).
extension AnyBeacon {
    /// Sets the power at 1 m the frame carries, the inverse of ``powerAt1m``: an iBeacon's
    /// measured power, an AltBeacon's reference RSSI, an Eddystone frame's TX power at 0 m (the
    /// power at 1 m plus 41 dB, clamped to a byte). False for TLM, which carries none.
    @discardableResult
    public mutating func setPowerAt1m(_ power: Int8) -> Bool {
        switch self {
        case .iBeacon(var b): b.measuredPower = power; self = .iBeacon(b)
        case .altBeacon(var b): b.referenceRSSI = power; self = .altBeacon(b)
        case .eddystoneUID(var b): b.txPower = Int8(clamping: Int(power) + EddystoneFormat.lossOverFirstMetre); self = .eddystoneUID(b)
        case .eddystoneURL(var b): b.txPower = Int8(clamping: Int(power) + EddystoneFormat.lossOverFirstMetre); self = .eddystoneURL(b)
        case .eddystoneTLM: return false
        }
        return true
    }

    /// Sets the major and/or minor: an iBeacon's, or the two halves of the last 4 bytes of an
    /// AltBeacon's ID (how profiles write it: uuid, major, minor). False for Eddystone.
    @discardableResult
    public mutating func setMajorMinor(major: UInt16?, minor: UInt16?) -> Bool {
        switch self {
        case .iBeacon(var b):
            if let major { b.major = major }
            if let minor { b.minor = minor }
            self = .iBeacon(b)
        case .altBeacon(var b):
            let oldMajor = UInt16(truncatingIfNeeded: b.id.suffix >> 16), oldMinor = UInt16(truncatingIfNeeded: b.id.suffix)
            b.id.suffix = UInt32(major ?? oldMajor) << 16 | UInt32(minor ?? oldMinor)
            self = .altBeacon(b)
        case .eddystoneUID, .eddystoneURL, .eddystoneTLM:
            return false
        }
        return true
    }
}
