// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconEmulator
import BeaconProfiles
import Foundation
import Testing

extension BumbleIntegration {
    /// Every format of a profile received by Bumble's scanner, byte for byte as the specifications
    /// lay it out (written here by hand, not by our encoder), and an Eddystone beacon's TLM
    /// frames whose counters advance.
    @Suite("Beacon formats")
    struct FormatTests {
        static let fleetText = """
            name: formats
            beacons:
              - {name: ib, uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 2, measured_power: -59}
              - {name: alt, format: altbeacon, uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 3, minor: 4, measured_power: -60}
              - {name: uid, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "0000000000A1", power_at_0m: -20}
              - {name: url, format: eddystone-url, url: "https://www.example.com/", power_at_0m: -21}
            """

        /// Flags `02 01 06`, then each format's structures (Apple's iBeacon layout; AltBeacon
        /// spec v1.0 with company 0x0118; Eddystone's UUID list and service data 0xFEAA).
        static let expected: [String: String] = [
            "ib": "020106" + "1AFF4C000215" + "E2C56DB5DFFB48D2B060D0F5A71096E0" + "0001" + "0002" + "C5",
            "alt": "020106" + "1BFF1801BEAC" + "E2C56DB5DFFB48D2B060D0F5A71096E0" + "0003" + "0004" + "C4" + "00",
            // UID: type 00, tx EC (-20), namespace, instance, 2 reserved bytes.
            "uid": "020106" + "0303AAFE" + "1716AAFE" + "00EC" + "8B0CA750E7A74E14BD99" + "0000000000A1" + "0000",
            // URL: type 10, tx EB (-21), scheme 01 (https://www.), "example", 00 (.com/).
            "url": "020106" + "0303AAFE" + "0E16AAFE" + "10EB01" + "6578616D706C65" + "00",
        ]

        @Test("iBeacon, AltBeacon, Eddystone-UID and Eddystone-URL from one fleet, exact bytes")
        func everyFormat() async throws {
            let profiles = try ProfileLoader.parse(Self.fleetText, file: "formats.yaml").beacons
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let started = BumbleLink.now()
                try await fleet.start(profiles)
                let addresses = Dictionary(uniqueKeysWithValues: profiles.map { ($0.address.description, $0.name) })
                let heardAll = await link.waitFor(timeout: .seconds(20)) { l in
                    Set(l.advs(since: started).compactMap { addresses[$0.address] }).count == profiles.count
                }
                _ = await fleet.stop()
                #expect(heardAll, "not every format was received: \(link.advs(since: started).suffix(8))")
                for adv in link.advs(since: started) {
                    guard let name = addresses[adv.address] else { continue }
                    #expect(Hex.string(adv.data) == Self.expected[name], "\(name)")
                    #expect(adv.legacy && !adv.connectable && !adv.scannable && adv.addressType == 1, "\(name): \(adv)")
                }
            }
        }

        @Test("an Eddystone-UID beacon with tlm: TLM bursts from its address, counters advancing")
        func liveTelemetry() async throws {
            let text = """
                format: eddystone-uid
                namespace: 8B0CA750E7A74E14BD99
                instance: "0000000000B2"
                interval: 50
                tlm: {every: 1, duration: 0.4, battery: 2950, temperature: 23.25}
                """
            let profiles = try ProfileLoader.parse(text, file: "eddy.yaml").beacons
            let beacon = try #require(profiles.first)
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let started = BumbleLink.now()
                try await fleet.start(profiles)
                // Three bursts with three different counts (every burst fixes its counters).
                @Sendable func telemetry(_ l: BumbleLink) -> [(time: Double, tlm: EddystoneTLM)] {
                    l.advs(since: started).filter { $0.address == beacon.address.description }.compactMap { adv in
                        guard case .eddystoneTLM(let tlm)? = try? AnyBeacon(decoding: adv.data) else { return nil }
                        return (adv.time, tlm)
                    }
                }
                let enough = await link.waitFor(timeout: .seconds(30)) { l in Set(telemetry(l).map(\.tlm.advertisingCount)).count >= 3 }
                _ = await fleet.stop()
                #expect(enough, "fewer than three TLM bursts received: \(link.advs(since: started).suffix(6))")
                let frames = telemetry(link)
                // In reception order, counts and uptimes never go back and do move on.
                for (a, b) in zip(frames, frames.dropFirst()) {
                    #expect(b.tlm.advertisingCount >= a.tlm.advertisingCount && b.tlm.uptimeTenths >= a.tlm.uptimeTenths)
                }
                let counts = frames.map(\.tlm.advertisingCount)
                #expect(Set(counts).count >= 3 && counts.first! < counts.last!)
                // One burst a second at 50 ms: about 20 events and 10 tenths between bursts.
                let distinct = Array(Set(frames.map(\.tlm))).sorted { $0.advertisingCount < $1.advertisingCount }
                for (a, b) in zip(distinct, distinct.dropFirst()) {
                    #expect((b.advertisingCount - a.advertisingCount) % 20 == 0, "\(a) → \(b)")
                    #expect((b.uptimeTenths - a.uptimeTenths) % 10 == 0, "\(a) → \(b)")
                }
                #expect(frames.allSatisfy { $0.tlm.batteryMillivolts == 2950 && $0.tlm.celsius == 23.25 })
                // Between the bursts the UID frame itself.
                let uid = link.advs(since: started).filter { $0.address == beacon.address.description }.compactMap { adv -> EddystoneUID? in
                    guard case .eddystoneUID(let u)? = try? AnyBeacon(decoding: adv.data) else { return nil }
                    return u
                }
                #expect(!uid.isEmpty && uid.allSatisfy { $0.instance == EddystoneInstance(0xB2) })
            }
        }
    
        @Test("a local name in the scan response: ADV_SCAN_IND, and an active scan gets the name", arguments: [false, true])
        func localName(legacy: Bool) async throws {
            let text = """
                name: named
                beacons:
                  - {name: door, uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 1, local_name: "Door 1"}
                  - {name: uid, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "0000000000A1", local_name: "Till"}
                """
            let profiles = try ProfileLoader.parse(text, file: "named.yaml").beacons
            try await withBumble(["--active-scan"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet(legacy ? FleetPlanner(forceLegacy: true) : FleetPlanner())
                let started = BumbleLink.now()
                try await fleet.start(profiles)
                let names = Dictionary(uniqueKeysWithValues: profiles.map { ($0.address.description, $0.localName!) })
                @Sendable func answered(_ l: BumbleLink) -> Set<String> {
                    Set(l.advs(since: started).filter { $0.scanResponse && names[$0.address] != nil }.map(\.address))
                }
                let both = await link.waitFor(timeout: .seconds(20)) { l in answered(l).count == profiles.count }
                _ = await fleet.stop()
                #expect(both, "no scan response from every beacon: \(link.advs(since: started).suffix(6))")
                for adv in link.advs(since: started) where names[adv.address] != nil {
                    // Scannable, not connectable, legacy PDUs: ADV_SCAN_IND.
                    #expect(adv.legacy && adv.scannable && !adv.connectable, "\(adv)")
                    guard adv.scanResponse, let name = names[adv.address] else { continue }
                    // The advertising data, then `LL 09 name` (Complete Local Name).
                    let response = [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8)
                    #expect(Array(adv.data.suffix(response.count)) == response, "\(adv)")
                }
                let parameters = legacy ? link.commands(opcode: 0x2006).map { $0.parameters[4] } : link.commands(opcode: 0x2036).map { $0.parameters[1] }
                #expect(parameters.contains(legacy ? 0x02 : 0x12), "ADV_SCAN_IND (legacy type 0x02, or event properties 0x0012)")
            }
        }
    
        @Test("deliberately non-conforming packets go on air exactly as written")
        func rawPackets() async throws {
            let text = """
                name: broken
                defaults: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1}
                beacons:
                  - {name: long, minor: 1, patch: [{at: 3, bytes: "1B"}]}
                  - {name: hex, format: raw, data: "1AFF4C000215 E2C56DB5DFFB48D2B060D0F5A71096E0 0001 0002 C5 0201FF"}
                """
            let profiles = try ProfileLoader.parse(text, file: "broken.yaml").beacons
            // Written by hand: the length byte 1B over a 26-byte structure; no Flags first and a
            // Flags structure with every bit set after.
            let expected = [
                profiles[0].address.description: "0201061BFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010001C5",
                profiles[1].address.description: "1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C50201FF",
            ]
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let started = BumbleLink.now()
                try await fleet.start(profiles)
                let heard = await link.waitFor(timeout: .seconds(20)) { l in
                    Set(l.advs(since: started).compactMap { expected[$0.address] == nil ? nil : $0.address }).count == 2
                }
                _ = await fleet.stop()
                #expect(heard, "\(link.advs(since: started).suffix(6))")
                for adv in link.advs(since: started) where expected[adv.address] != nil {
                    #expect(Hex.string(adv.data) == expected[adv.address], "\(adv)")
                }
            }
        }
    }
}
