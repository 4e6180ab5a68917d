// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio
import Testing
@testable import BeaconProfiles

@Suite struct RangeExpansionTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test func toAndCountDeclareTheSameBeacons() throws {
        let to = try ProfileLoader.parse("uuid: \(Self.uuid)\nmajor: 1\nminor: {from: 5, to: 9}\n", file: "a.yaml")
        let count = try ProfileLoader.parse("uuid: \(Self.uuid)\nmajor: 1\nminor: {from: 5, count: 5}\n", file: "a.yaml")
        #expect(to.beacons.map(\.iBeacon!.minor) == [5, 6, 7, 8, 9])
        #expect(to.beacons == count.beacons)
        #expect(to.beacons.map(\.name) == (5...9).map { "a-1-\($0)" })
        #expect(Set(to.beacons.map(\.address)).count == 5)
        // Every expanded beacon is declared at its entry.
        #expect(to.beacons.allSatisfy { $0.location == SourceLocation(file: "a.yaml", line: 1, column: 1) })
    }

    @Test func rangesOnMajorAndMinorMultiply() throws {
        let yaml = "uuid: \(Self.uuid)\nmajor: {from: 1, count: 2}\nminor: {from: 0, to: 2}\nname: \"b{major}.{minor}#{index}\"\n"
        let beacons = try ProfileLoader.parse(yaml, file: "m.yaml").beacons
        #expect(beacons.map(\.name) == ["b1.0#0", "b1.1#1", "b1.2#2", "b2.0#3", "b2.1#4", "b2.2#5"])
    }

    @Test func singleValueRangeIsOneBeacon() throws {
        let yaml = "uuid: \(Self.uuid)\nmajor: 1\nminor: {from: 65535, count: 1}\nname: fixed\n"
        let beacons = try ProfileLoader.parse(yaml, file: "s.yaml").beacons
        #expect(beacons.map(\.iBeacon!.minor) == [65535])
        #expect(beacons.map(\.name) == ["fixed"])
    }

    @Test func namePlaceholdersPadToTheirWidth() throws {
        let yaml = "uuid: \(Self.uuid)\nmajor: 2\nminor: {from: 8, count: 3}\nname: \"s-{minor:3}-{index:02}-{major}\"\n"
        let beacons = try ProfileLoader.parse(yaml, file: "n.yaml").beacons
        #expect(beacons.map(\.name) == ["s-008-00-2", "s-009-01-2", "s-010-02-2"])
    }

    @Test func addressPlaceholdersAreTwoOctets() throws {
        let yaml = """
            uuid: \(Self.uuid)
            major: 0x102
            minor: {from: 41, count: 2}
            address: "C0:FF:{index}:{minor}"
            """
        let beacons = try ProfileLoader.parse(yaml, file: "a.yaml").beacons
        #expect(beacons.map(\.iBeacon!.major) == [258, 258])
        #expect(beacons.map(\.address.description) == ["C0:FF:00:00:00:29", "C0:FF:00:01:00:2A"])
        #expect(beacons.allSatisfy { !$0.addressIsDerived })
    }

    @Test func positionStepsOncePerBeacon() throws {
        let yaml = """
            uuid: \(Self.uuid)
            major: 1
            minor: {from: 0, count: 4}
            position: {x: 1, y: 2, z: 0.5, step: {x: 0.1, z: -0.25}}
            """
        let positions = try ProfileLoader.parse(yaml, file: "p.yaml").beacons.map(\.position)
        #expect(positions == [
            Point(x: 1, y: 2, z: 0.5), Point(x: 1.1, y: 2, z: 0.25),
            Point(x: 1.2, y: 2, z: 0), Point(x: 1.3, y: 2, z: -0.25),
        ])
    }

    @Test func addressPatternThatIsNotAnAddressIsReportedOnce() throws {
        let yaml = "uuid: \(Self.uuid)\nmajor: 1\nminor: {from: 0, count: 50}\naddress: \"C0:{minor}\"\n"
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.parse(yaml, file: "a.yaml") }
        #expect(error.issues.count == 1)
        #expect(error.issues.first?.field == "address")
        #expect(error.issues.first?.value == "\"C0:{minor}\" → C0:00:00")
    }

    @Test func patternRenderingANonStaticAddressIsRejected() throws {
        // The pattern is fine for minor 0 ... but {minor} fills the first octets here.
        let yaml = "uuid: \(Self.uuid)\nmajor: 1\nminor: {from: 0, count: 2}\naddress: \"{minor}:00:00:00:01\"\n"
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.parse(yaml, file: "a.yaml") }
        #expect(error.issues.map(\.field) == ["address"])
        #expect(error.issues.first?.message.contains("random static") == true)
    }
}
