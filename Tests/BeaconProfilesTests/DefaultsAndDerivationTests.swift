// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio
import Testing
@testable import BeaconProfiles

@Suite struct DefaultsAndDerivationTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test func minimalBeaconGetsTheDocumentedDefaults() throws {
        let fleet = try ProfileLoader.parse("uuid: \(Self.uuid)\nmajor: 7\nminor: 9\n", file: "profiles/door.yaml")
        let beacon = try #require(fleet.beacons.first)
        #expect(beacon.name == "door-7-9")
        #expect(beacon.iBeacon == IBeacon(uuid: BeaconUUID(Self.uuid)!, major: 7, minor: 9, measuredPower: -59))
        #expect(beacon.intervalMilliseconds == 100)
        #expect(beacon.txPower == nil)
        #expect(beacon.flags == .generalDiscoverable)
        #expect(beacon.position == nil)
        #expect(beacon.addressIsDerived)
        #expect(beacon.address == BeaconProfile.derivedAddress(for: beacon.beacon))
        #expect(beacon.location == SourceLocation(file: "profiles/door.yaml", line: 1, column: 1))
    }

    @Test func intervalKeepsTheMillisecondsAsGiven() throws {
        let fleet = try ProfileLoader.parse("uuid: \(Self.uuid)\nmajor: 7\nminor: 9\ninterval: 30.3\n", file: "profiles/door.yaml")
        #expect(fleet.beacons.first?.intervalMilliseconds == 30.3)
    }

    @Test func jsonIsAccepted() throws {
        let json = """
            {"name": "hall", "defaults": {"uuid": "\(Self.uuid)", "major": 3},
             "beacons": [{"minor": 1, "tx_power": -4, "flags": "none", "position": {"x": 1, "y": 2, "z": 0.5}}]}
            """
        let fleet = try ProfileLoader.parse(json, file: "hall.json")
        let beacon = try #require(fleet.beacons.first)
        #expect(fleet.name == "hall")
        #expect(beacon.name == "hall-3-1")
        #expect(beacon.txPower == -4)
        #expect(beacon.flags == BeaconFlags.none)
        #expect(beacon.position == Point(x: 1, y: 2, z: 0.5))
    }

    @Test func entryKeysOverrideDefaults() throws {
        let yaml = """
            defaults: {uuid: \(Self.uuid), major: 1, measured_power: -60, interval: 250}
            beacons:
              - {minor: 1}
              - {minor: 2, measured_power: -70, major: 2}
            """
        let beacons = try ProfileLoader.parse(yaml, file: "f.yaml").beacons
        #expect(beacons.map(\.iBeacon!.measuredPower) == [-60, -70])
        #expect(beacons.map(\.iBeacon!.major) == [1, 2])
        #expect(beacons.map(\.intervalMilliseconds) == [250, 250])
        #expect(beacons.map(\.location.line) == [3, 4])
    }

    /// Golden values from an independent FNV-1a implementation (Python, see docs/PROFILES.md):
    /// the address of a beacon must never change between runs, builds or machines.
    @Test(arguments: [
        ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", UInt16(1), UInt16(1), "CB:F6:96:57:C1:D4"),
        ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", 1, 2, "CE:F6:96:57:C6:ED"),
        ("B9D4719F-A407-42FA-A365-1B6B03AE00CF", 1, 1, "D9:EA:F0:DE:76:63"),
        ("00000000-0000-0000-0000-000000000000", 0, 0, "FA:FD:35:4B:09:35"),
    ])
    func derivedAddressIsStable(uuid: String, major: UInt16, minor: UInt16, address: String) throws {
        let beacon = IBeacon(uuid: try #require(BeaconUUID(uuid)), major: major, minor: minor)
        #expect(BeaconProfile.derivedAddress(for: beacon).description == address)
        // Measured power is not part of the identity.
        var louder = beacon
        louder.measuredPower = -40
        #expect(BeaconProfile.derivedAddress(for: louder) == BeaconProfile.derivedAddress(for: beacon))
    }

    @Test func derivedAddressesAreStaticAndDistinct() {
        var seen = Set<BluetoothAddress>()
        let uuid = BeaconUUID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        for major in UInt16(0)..<8 {
            for minor in UInt16(0)..<1024 {
                let address = BeaconProfile.derivedAddress(for: IBeacon(uuid: uuid, major: major, minor: minor))
                #expect(address.value >> 46 == 0b11)
                #expect(address.isStaticRandom)
                seen.insert(address)
            }
        }
        #expect(seen.count == 8 * 1024)
    }

    @Test func issueAndErrorsPrintOneLineEach() {
        let issue = ProfileIssue(location: SourceLocation(file: "profiles/x.yaml", line: 7, column: 12),
                                 field: "major", value: "70000", message: "must be an integer from 0 to 65535")
        #expect(issue.description == "profiles/x.yaml:7:12: major: 70000: must be an integer from 0 to 65535")
        let errors = ProfileErrors(issues: [issue, issue])
        #expect(errors.description.split(separator: "\n").count == 2)
    }

    @Test func messagesStateWhatIsAllowed() throws {
        let yaml = "uuid: \(Self.uuid)\nmajor: 1\nminor: 70000\nmeasuredPower: -50\n"
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.parse(yaml, file: "x.yaml") }
        #expect(error.description == """
            x.yaml:3:8: minor: 70000: must be an integer from 0 to 65535
            x.yaml:4:1: measuredPower: -50: unknown key; did you mean `measured_power`?
            """)
    }
}
