// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Foundation
import TestSupport
import Testing

/// What a beacon must look like when the scanner receives it.
enum BeaconExpectations {
    /// The advertising data a profile must put on air, assembled field by field from the iBeacon
    /// layout (not through the codec's encoder, so an encoder bug cannot hide here): Flags
    /// `02 01 xx` (unless none), then `1A FF 4C 00 02 15`, UUID, major and minor big-endian, power.
    static func bytes(for profile: BeaconProfile) -> [UInt8] {
        var out: [UInt8] = []
        if let flags = profile.flags.byte { out += [0x02, 0x01, flags] }
        out += [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        out += profile.iBeacon!.uuid.bytes
        out += [UInt8(profile.iBeacon!.major >> 8), UInt8(profile.iBeacon!.major & 0xFF)]
        out += [UInt8(profile.iBeacon!.minor >> 8), UInt8(profile.iBeacon!.minor & 0xFF)]
        out.append(UInt8(bitPattern: profile.iBeacon!.measuredPower))
        return out
    }

    /// Checks one received advertisement against `profile`: its address (random static; the
    /// profile's own unless `address` says otherwise), a legacy PDU, the exact bytes, and the
    /// fields our codec decodes from them.
    static func check(_ adv: HarnessAdvertisement, carries profile: BeaconProfile, address: String? = nil,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(adv.address == address ?? profile.address.description, "address of \(profile.name)", sourceLocation: sourceLocation)
        #expect(adv.addressType == 1, "\(profile.name) must advertise from a random address", sourceLocation: sourceLocation)
        #expect(adv.legacy, "\(profile.name) must use legacy PDUs (ADV_NONCONN_IND)", sourceLocation: sourceLocation)
        #expect(Hex.string(adv.data) == Hex.string(bytes(for: profile)), "raw bytes of \(profile.name)", sourceLocation: sourceLocation)
        do {
            let decoded = try IBeacon(decoding: adv.data)
            #expect(decoded.uuid == profile.iBeacon!.uuid, "UUID of \(profile.name)", sourceLocation: sourceLocation)
            #expect(decoded.major == profile.iBeacon!.major, "major of \(profile.name)", sourceLocation: sourceLocation)
            #expect(decoded.minor == profile.iBeacon!.minor, "minor of \(profile.name)", sourceLocation: sourceLocation)
            #expect(decoded.measuredPower == profile.iBeacon!.measuredPower, "power of \(profile.name)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(profile.name): the received data does not decode: \(error) (\(adv))", sourceLocation: sourceLocation)
        }
    }

    /// Checks every advertisement from one of our addresses: its data must be exactly one of
    /// `profiles`' payloads, sent from that beacon's address (`addresses[name]`, else the
    /// profile's own) — so a rotation that changed the address but not the data, or the other way
    /// round, shows here. Returns the first reception time of each profile, by name.
    @discardableResult
    static func checkAll(_ advs: [HarnessAdvertisement], from profiles: [BeaconProfile], addresses: [String: String] = [:],
                         sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String: Double] {
        func expectedAddress(_ p: BeaconProfile) -> String { addresses[p.name] ?? p.address.description }
        let ours = Set(profiles.map(expectedAddress))
        let byData = Dictionary(profiles.map { (Hex.string(bytes(for: $0)), $0) }, uniquingKeysWith: { a, _ in a })
        var first: [String: Double] = [:]
        var wrong: [HarnessAdvertisement] = []
        for adv in advs where ours.contains(adv.address) {
            guard let profile = byData[Hex.string(adv.data)], adv.address == expectedAddress(profile), adv.legacy, adv.addressType == 1 else {
                wrong.append(adv)
                continue
            }
            if first[profile.name] == nil {
                check(adv, carries: profile, address: expectedAddress(profile), sourceLocation: sourceLocation)  // decode each beacon once
                first[profile.name] = adv.time
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) advertisements from our addresses were not exactly a beacon of ours from its address: \(wrong.prefix(3))",
                sourceLocation: sourceLocation)
        return first
    }

    /// Loads a shipped profile from `profiles/`.
    static func shipped(_ name: String) throws -> [BeaconProfile] {
        let path = PackageRoot.url.appendingPathComponent("profiles").appendingPathComponent(name).path
        return try ProfileLoader.load(contentsOf: path).beacons
    }

    /// `count` beacons built in code: one UUID and major, minors from `firstMinor`, each with its
    /// own derived address.
    static func generated(_ count: Int, firstMinor: UInt16 = 1, intervalMilliseconds: Double = 100) -> [BeaconProfile] {
        let uuid = BeaconUUID("0E4A2A4C-7A8B-4C44-9E53-5F6B1D2C3A90")!
        return (0..<count).map { i in
            let minor = firstMinor + UInt16(i)
            return BeaconProfile(name: "gen-\(minor)", beacon: IBeacon(uuid: uuid, major: 7, minor: minor, measuredPower: -60 + Int8(i % 5)),
                                 intervalMilliseconds: intervalMilliseconds)
        }
    }
}
