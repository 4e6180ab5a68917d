// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Foundation
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
        out += profile.beacon.uuid.bytes
        out += [UInt8(profile.beacon.major >> 8), UInt8(profile.beacon.major & 0xFF)]
        out += [UInt8(profile.beacon.minor >> 8), UInt8(profile.beacon.minor & 0xFF)]
        out.append(UInt8(bitPattern: profile.beacon.measuredPower))
        return out
    }

    /// Checks one received advertisement against `profile`: its address (random static), a legacy
    /// PDU, the exact bytes, and the fields our codec decodes from them.
    static func check(_ adv: HarnessAdvertisement, carries profile: BeaconProfile, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(adv.address == profile.address.description, "address of \(profile.name)", sourceLocation: sourceLocation)
        #expect(adv.addressType == 1, "\(profile.name) must advertise from a random address", sourceLocation: sourceLocation)
        #expect(adv.legacy, "\(profile.name) must use legacy PDUs (ADV_NONCONN_IND)", sourceLocation: sourceLocation)
        #expect(Hex.string(adv.data) == Hex.string(bytes(for: profile)), "raw bytes of \(profile.name)", sourceLocation: sourceLocation)
        do {
            let decoded = try IBeacon(decoding: adv.data)
            #expect(decoded.uuid == profile.beacon.uuid, "UUID of \(profile.name)", sourceLocation: sourceLocation)
            #expect(decoded.major == profile.beacon.major, "major of \(profile.name)", sourceLocation: sourceLocation)
            #expect(decoded.minor == profile.beacon.minor, "minor of \(profile.name)", sourceLocation: sourceLocation)
            #expect(decoded.measuredPower == profile.beacon.measuredPower, "power of \(profile.name)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(profile.name): the received data does not decode: \(error) (\(adv))", sourceLocation: sourceLocation)
        }
    }

    /// Checks every advertisement from one of `profiles`' addresses (each must carry exactly its
    /// own beacon: a rotation that changed the address but not the data would show here) and
    /// returns the first reception time of each profile, by name.
    @discardableResult
    static func checkAll(_ advs: [HarnessAdvertisement], from profiles: [BeaconProfile],
                         sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String: Double] {
        let byAddress = Dictionary(profiles.map { ($0.address.description, $0) }, uniquingKeysWith: { a, _ in a })
        var first: [String: Double] = [:]
        var wrong = 0
        for adv in advs {
            guard let profile = byAddress[adv.address] else { continue }
            if Hex.string(adv.data) != Hex.string(bytes(for: profile)) || !adv.legacy || adv.addressType != 1 {
                wrong += 1
                if wrong <= 3 { check(adv, carries: profile, sourceLocation: sourceLocation) }  // details of the first few
                continue
            }
            if first[profile.name] == nil {
                check(adv, carries: profile, sourceLocation: sourceLocation)  // decode each beacon once with our codec
                first[profile.name] = adv.time
            }
        }
        #expect(wrong == 0, "\(wrong) advertisements from our addresses carried the wrong data", sourceLocation: sourceLocation)
        return first
    }

    /// Loads a shipped profile from `profiles/`.
    static func shipped(_ name: String) throws -> [BeaconProfile] {
        let path = BumbleLink.packageRoot.appendingPathComponent("profiles").appendingPathComponent(name).path
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
