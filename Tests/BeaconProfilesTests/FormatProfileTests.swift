// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing
@testable import BeaconProfiles

/// `format:` and each format's fields (the rejections are in Fixtures/broken).
@Suite struct FormatProfileTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test func profilesWithoutFormatAreIBeaconsAsBefore() throws {
        let fleet = try ProfileLoader.parse("uuid: \(Self.uuid)\nmajor: 7\nminor: 9\n", file: "door.yaml")
        let explicit = try ProfileLoader.parse("format: ibeacon\nuuid: \(Self.uuid)\nmajor: 7\nminor: 9\n", file: "door.yaml")
        #expect(fleet.beacons.first?.format == .iBeacon)
        #expect(fleet.beacons == explicit.beacons)
    }

    @Test func altBeaconIdIsUUIDMajorMinorAndRangesExpand() throws {
        let text = """
            format: altbeacon
            uuid: \(Self.uuid)
            major: 0x0102
            minor: {from: 3, count: 2}
            measured_power: -61
            manufacturer: 0x004C
            reserved: 0x7F
            name: "alt-{minor}"
            """
        let fleet = try ProfileLoader.parse(text, file: "alt.yaml")
        #expect(fleet.beacons.map(\.name) == ["alt-3", "alt-4"])
        let first = try #require(fleet.beacons.first)
        let expected = AltBeacon(manufacturerID: 0x004C, id: AltBeaconID(prefix: BeaconUUID(Self.uuid)!, suffix: 0x0102_0003),
                                 referenceRSSI: -61, reserved: 0x7F)
        #expect(first.beacon == .altBeacon(expected))
        #expect(first.beacon.advertisingData(flags: first.flags) == expected.advertisingData())
        // Not the address of the iBeacon with the same uuid, major and minor.
        let iBeacon = IBeacon(uuid: BeaconUUID(Self.uuid)!, major: 0x0102, minor: 3)
        #expect(first.address != BeaconProfile.derivedAddress(for: iBeacon))
        #expect(first.address.isStaticRandom)
    }

    @Test func eddystoneUIDWithTelemetry() throws {
        let text = """
            format: eddystone-uid
            namespace: 8B0CA750E7A74E14BD99
            instance: 000000000001
            power_at_0m: -20
            tlm: {every: 5, duration: 0.5, battery: 2900, temperature: none}
            """
        let beacon = try #require(try ProfileLoader.parse(text, file: "eddy.yaml").beacons.first)
        #expect(beacon.name == "eddy-000000000001")
        #expect(beacon.beacon == .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace("8B0CA750E7A74E14BD99")!,
                                                             instance: EddystoneInstance(1), txPower: -20)))
        #expect(beacon.telemetry == TelemetryPlan(period: .seconds(5), duration: .milliseconds(500), batteryMillivolts: 2900,
                                                  temperature: EddystoneTLM.temperatureNotSupported))
        #expect(beacon.beacon.powerAt1m == -61)
    }

    @Test func eddystoneURLDefaultsAndTelemetryDefaults() throws {
        let text = "format: eddystone-url\nurl: https://goo.gl/S6zT6P\ntlm: {}\n"
        let beacon = try #require(try ProfileLoader.parse(text, file: "web.yaml").beacons.first)
        guard case .eddystoneURL(let url) = beacon.beacon else { Issue.record("not a URL beacon: \(beacon.beacon)"); return }
        #expect(url.url == "https://goo.gl/S6zT6P")
        #expect(url.txPower == BeaconProfile.defaultPowerAt0m)
        #expect(beacon.telemetry == TelemetryPlan())
        #expect(beacon.name == "web-url")
    }

    @Test func mixedFleetIgnoresDefaultsAFormatDoesNotTake() throws {
        let text = """
            name: mixed
            defaults: {uuid: \(Self.uuid), major: 1, power_at_0m: -10}
            beacons:
              - {minor: 1}
              - {format: altbeacon, minor: 2}
              - {format: eddystone-uid, namespace: 00112233445566778899, instance: "00000000000A"}
              - {format: eddystone-url, url: "https://www.example.org"}
            """
        let fleet = try ProfileLoader.parse(text, file: "mixed.yaml")
        #expect(fleet.beacons.map(\.format) == [.iBeacon, .altBeacon, .eddystoneUID, .eddystoneURL])
        #expect(Set(fleet.beacons.map(\.address)).count == 4)
        if case .eddystoneUID(let uid) = fleet.beacons[2].beacon { #expect(uid.txPower == -10) } else { Issue.record("not UID") }
    }

    @Test func sameIdentityInDifferentFormatsIsNoClash() throws {
        let text = """
            defaults: {uuid: \(Self.uuid), major: 1, minor: 1}
            beacons:
              - {name: i}
              - {name: a, format: altbeacon}
            """
        #expect(try ProfileLoader.parse(text, file: "twins.yaml").beacons.count == 2)
    }

    @Test func localNameGoesToTheScanResponseWithPlaceholders() throws {
        let text = """
            uuid: \(Self.uuid)
            major: 1
            minor: {from: 7, count: 2}
            name: "door-{minor}"
            local_name: "Door {minor}"
            """
        let beacons = try ProfileLoader.parse(text, file: "doors.yaml").beacons
        #expect(beacons.map(\.localName) == ["Door 7", "Door 8"])
        // `LL 09 name`: the Complete Local Name AD structure.
        #expect(beacons.first?.scanResponse.map(Array.init) == [0x07, 0x09] + Array("Door 7".utf8))
        let plain = try ProfileLoader.parse("uuid: \(Self.uuid)\nmajor: 1\nminor: 1\n", file: "p.yaml").beacons
        #expect(plain.first?.scanResponse == nil)
        // Written back by FleetWriter and read again: the same names.
        let again = try ProfileLoader.parse(FleetWriter.yaml(name: "doors", beacons: beacons), file: "doors.yaml").beacons
        #expect(again.map(\.localName) == ["Door 7", "Door 8"])
    }

    @Test func patchesAndRawDataAreSentAsGivenAndNamedByTheirBeacon() throws {
        let text = """
            name: broken
            defaults: {uuid: \(Self.uuid), major: 1}
            beacons:
              - {name: good, minor: 1}
              - {name: long, minor: 1, patch: [{at: 3, bytes: "1B"}, {at: 30, bytes: "00"}]}
              - {name: hex, format: raw, data: "02 01 06 1A FF 4C 00 02 15 E2C56DB5DFFB48D2B060D0F5A71096E0 0001 0001 C5"}
            """
        let beacons = try ProfileLoader.parse(text, file: "broken.yaml").beacons
        let good = try #require(beacons.first)
        #expect(good.rawData == nil && good.advertisingData == good.beacon.advertisingData(flags: .generalDiscoverable))
        // The length byte says 27 where 26 follow, and a byte more is appended: 31 bytes.
        var expected = Array(good.advertisingData)
        expected[3] = 0x1B
        expected.append(0x00)
        #expect(beacons[1].rawData.map(Array.init) == expected)
        #expect(beacons[1].advertisingData.count == 31)
        // Raw hex: the same bytes as the good beacon, but named as its own (another address).
        #expect(beacons[2].rawData == good.advertisingData)
        #expect(beacons[2].beacon == good.beacon)
        // Variants of one beacon share its identity on purpose, each with its own derived address.
        #expect(Set(beacons.map(\.address)).count == 3)
        #expect(beacons[1].address == BeaconProfile.derivedAddress(forRaw: beacons[1].rawData!))
        // Written back (as raw data) and read again: the same bytes on air.
        let again = try ProfileLoader.parse(FleetWriter.yaml(name: "broken", beacons: beacons), file: "broken.yaml").beacons
        #expect(again.map(\.advertisingData) == beacons.map(\.advertisingData))
    }
}
