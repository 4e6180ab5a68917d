// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A beacon that is `Codable` as the beacon object of docs/schema/beacon.schema.json: "format",
/// then the format's own members, in the words of ``naming``. It encodes exactly the members of
/// ``BeaconObject/fields(_:naming:)`` (the one writer), and decodes them with typed errors:
/// a missing member is `DecodingError.keyNotFound`, a member of the wrong type
/// `typeMismatch`, a value out of range or unreadable (a bad UUID, major 65536)
/// `dataCorrupted`, each naming the member.
///
/// ```swift
/// let beacon = try JSONDecoder().decode(CodableBeacon.self, from: Data(#"{"format":"ibeacon","uuid":"…","major":1,"minor":2,"power":-59}"#.utf8))
/// ```
public struct CodableBeacon: Codable, Sendable, Hashable {
    /// The beacon, of any format.
    public var beacon: AnyBeacon
    /// The words of the power fields (``BeaconObject/Naming``): decoding takes the profile's
    /// ("power_at_0m", AltBeacon's "power") when present, else the payload's ("tx_power", "rssi").
    public var naming: BeaconObject.Naming

    /// `beacon`, written in `naming`'s words.
    public init(_ beacon: AnyBeacon, naming: BeaconObject.Naming = .profile) {
        self.beacon = beacon
        self.naming = naming
    }

    /// Encodes the members of ``BeaconObject/fields(_:naming:)``.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(BeaconObject.fields(beacon, naming: naming)).encode(to: encoder)
    }

    /// Decodes a beacon object in either naming (see ``naming``).
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder.container(keyedBy: BeaconObject.Key.self), naming: nil)
    }

    /// Reads a beacon's members from `c`; `naming` `nil` takes whichever words `c` has.
    init(from c: KeyedDecodingContainer<BeaconObject.Key>, naming: BeaconObject.Naming?) throws {
        let format = try BeaconObject.format(in: c)
        if format == .eddystoneTLM {
            let tlm = EddystoneTLM(batteryMillivolts: try c.decodeInRange(UInt16.self, forKey: .batteryMillivolts),
                                   temperature: try c.decodeInRange(Int16.self, forKey: .temperature),
                                   advertisingCount: try c.decodeInRange(UInt32.self, forKey: .advertisingCount),
                                   uptimeTenths: try c.decodeInRange(UInt32.self, forKey: .uptimeTenths))
            self.init(.eddystoneTLM(tlm), naming: naming ?? .profile)
            return
        }
        let key = try BeaconObject.identity(in: c, format: format)
        // Which word the power has: the profile's unless only the payload's is there.
        let (profileWord, payloadWord): (BeaconObject.Key, BeaconObject.Key) = switch format {
        case .altBeacon: (.power, .rssi)
        case .iBeacon: (.power, .power)
        default: (.powerAt0m, .txPower)
        }
        let words = naming ?? (c.contains(profileWord) || !c.contains(payloadWord) ? .profile : .payload)
        let power = try c.decodeInRange(Int8.self, forKey: words == .profile ? profileWord : payloadWord)
        let beacon: AnyBeacon
        switch key {
        case .iBeacon(let id):
            beacon = .iBeacon(IBeacon(uuid: id.uuid, major: id.major, minor: id.minor, measuredPower: power))
        case .altBeacon(let manufacturer, let id):
            beacon = .altBeacon(AltBeacon(manufacturerID: manufacturer, id: id, referenceRSSI: power, reserved: try c.decodeInRange(UInt8.self, forKey: .reserved)))
        case .eddystoneUID(let namespace, let instance):
            beacon = .eddystoneUID(EddystoneUID(namespace: namespace, instance: instance, txPower: power))
        case .eddystoneURL(let scheme, let encoded):
            // `identity(in:format:)` read these bytes from a URL that encoded: they decode.
            beacon = .eddystoneURL(encoded.withUnsafeBytes { EddystoneURL(scheme: scheme, encoded: $0, txPower: power)! })
        }
        self.init(beacon, naming: words)
    }
}

extension BeaconObject {
    /// The "format" member of `c`.
    static func format(in c: KeyedDecodingContainer<Key>) throws -> BeaconFormat {
        try c.decode(.format, as: "a beacon format (\(BeaconFormat.allCases.map(\.rawValue).joined(separator: ", ")))") { BeaconFormat(rawValue: $0) }
    }

    /// The identity members of `c` (those ``identityFields(_:)`` writes) of a beacon of
    /// `format`; `format` must not be TLM, which has no identity.
    static func identity(in c: KeyedDecodingContainer<Key>, format: BeaconFormat) throws -> BeaconKey {
        switch format {
        case .iBeacon:
            return .iBeacon(BeaconIdentity(uuid: try c.decode(.uuid, as: "a UUID") { BeaconUUID($0) },
                                           major: try c.decodeInRange(UInt16.self, forKey: .major), minor: try c.decodeInRange(UInt16.self, forKey: .minor)))
        case .altBeacon:
            return .altBeacon(manufacturerID: try c.decodeInRange(UInt16.self, forKey: .manufacturer),
                              id: try c.decode(.id, as: "a 20-byte AltBeacon ID in hex") { AltBeaconID($0) })
        case .eddystoneUID:
            return .eddystoneUID(namespace: try c.decode(.namespace, as: "a 10-byte namespace in hex") { EddystoneNamespace($0) },
                                 instance: try c.decode(.instance, as: "a 6-byte instance in hex") { EddystoneInstance($0) })
        case .eddystoneURL:
            let url = try c.decode(.url, as: "a URL Eddystone-URL can send") { try? EddystoneURL(url: $0, txPower: 0) }
            return .eddystoneURL(scheme: url.scheme, encoded: url.encodedBytes)
        case .eddystoneTLM:
            throw DecodingError.dataCorruptedError(forKey: .format, in: c, debugDescription: "an Eddystone-TLM frame has no identity")
        }
    }

    /// The identity of `c` (its format and the format's identity members).
    static func identity(in c: KeyedDecodingContainer<Key>) throws -> BeaconKey {
        try identity(in: c, format: format(in: c))
    }
}
