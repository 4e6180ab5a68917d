// SPDX-License-Identifier: GPL-2.0-or-later

/// The beacon formats the codec reads and writes; the raw values are how profiles, the CLI and
/// the golden vector files name them.
public enum BeaconFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case iBeacon = "ibeacon"
    case eddystoneUID = "eddystone-uid"
    case eddystoneURL = "eddystone-url"
    case eddystoneTLM = "eddystone-tlm"
    case altBeacon = "altbeacon"

    public var description: String { rawValue }
}

/// A beacon of any supported format: what ``init(decoding:options:)-(UnsafeRawBufferPointer,_)``
/// recognises in advertising data ("which beacon is this"), and what an encoder can write.
public enum AnyBeacon: Hashable, Sendable, CustomStringConvertible {
    case iBeacon(IBeacon)
    case eddystoneUID(EddystoneUID)
    case eddystoneURL(EddystoneURL)
    case eddystoneTLM(EddystoneTLM)
    case altBeacon(AltBeacon)

    public var format: BeaconFormat {
        switch self {
        case .iBeacon: return .iBeacon
        case .eddystoneUID: return .eddystoneUID
        case .eddystoneURL: return .eddystoneURL
        case .eddystoneTLM: return .eddystoneTLM
        case .altBeacon: return .altBeacon
        }
    }

    public var description: String {
        switch self {
        case .iBeacon(let b): return b.description
        case .eddystoneUID(let b): return b.description
        case .eddystoneURL(let b): return b.description
        case .eddystoneTLM(let b): return b.description
        case .altBeacon(let b): return b.description
        }
    }

    /// Number of bytes ``encode(flags:into:)`` writes (at most 31).
    public func encodedSize(flags: BeaconFlags) -> Int {
        switch self {
        case .iBeacon: return IBeacon.encodedSize(flags: flags)
        case .eddystoneUID: return EddystoneUID.encodedSize(flags: flags)
        case .eddystoneURL(let b): return b.encodedSize(flags: flags)
        case .eddystoneTLM: return EddystoneTLM.encodedSize(flags: flags)
        case .altBeacon: return AltBeacon.encodedSize(flags: flags)
        }
    }

    /// Writes the advertising data into `buffer` and returns the number of bytes written.
    public func encode(flags: BeaconFlags = .generalDiscoverable, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        switch self {
        case .iBeacon(let b): return b.encode(flags: flags, into: buffer)
        case .eddystoneUID(let b): return b.encode(flags: flags, into: buffer)
        case .eddystoneURL(let b): return b.encode(flags: flags, into: buffer)
        case .eddystoneTLM(let b): return b.encode(flags: flags, into: buffer)
        case .altBeacon(let b): return b.encode(flags: flags, into: buffer)
        }
    }
}

/// A beacon of one format that writes its own advertising data (IBeacon has its own, inlinable).
public protocol BeaconPayloadWriting {
    /// Writes the advertising data into `buffer` and returns the number of bytes written.
    func encode(flags: BeaconFlags, into buffer: UnsafeMutableRawBufferPointer) -> Int
}

extension BeaconPayloadWriting {
    /// The advertising data as a fixed-size value (no heap allocation).
    public func advertisingData(flags: BeaconFlags = .generalDiscoverable) -> AdvertisingPayload {
        AdvertisingPayload { encode(flags: flags, into: $0) }
    }
}

extension AnyBeacon: BeaconPayloadWriting {}
extension EddystoneUID: BeaconPayloadWriting {}
extension EddystoneURL: BeaconPayloadWriting {}
extension EddystoneTLM: BeaconPayloadWriting {}
extension AltBeacon: BeaconPayloadWriting {}
