// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Testing
import TestSupport
@testable import BeaconSite

/// Site files: what they declare, and every problem reported at its line and column with the
/// field and what is allowed.
@Suite struct SiteFileTests {
    @Test func theShippedExampleLoads() throws {
        let site = try SiteLoader.load(contentsOf: PackageRoot.path("examples/site-lab.yaml"))
        #expect(site.name == "lab")
        #expect(site.hosts == ["pi-west", "pi-east"])
        #expect(site.radios.map(\.id.description) == ["pi-west/hci0", "pi-west/hci1", "pi-east/hci0"])
        #expect(site.radios[1].capacity == 4)
        #expect(site.broker?.url.description == "mqtt://127.0.0.1:1883")
        #expect(site.broker?.credentialsFile == "/etc/beacon/mqtt.credentials")
        #expect(site.maximumDistance == 12)
        #expect(site.failover == .nearest)
        // Nine inline beacons (a range of eight and one more), the four of room-2m.yaml after them.
        #expect(site.beacons.count == 13)
        #expect(site.beacons.map(\.name).suffix(4) == ["room-west", "room-north", "room-east", "room-south"])
        #expect(site.beacons.allSatisfy { $0.position != nil })
    }

    @Test func aSiteOfOneHostNeedsNoBroker() throws {
        let site = try SiteLoader.parse("""
            name: bench
            radios:
              - {host: box, adapter: hci0, position: {x: 0, y: 0}}
              - {host: box, adapter: hci1, position: {x: 5, y: 0}}
            beacons:
              - {uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 1, minor: 1, position: {x: 1, y: 0}}
            """, file: "bench.yaml")
        #expect(site.broker == nil)
        #expect(site.hosts == ["box"])
        #expect(site.discoveryPrefix == "homeassistant")
        #expect(site.maximumDistance == Site.defaultMaximumDistance)
    }

    /// Each line of `text` that has a problem is listed with its column and field.
    @Test func everyProblemIsReportedWithLineColumnAndField() {
        let text = """
            name: Lab Site
            broker: {url: http://x}
            max_distance: 0
            failover: nearst
            radios:
              - {host: pi, adapter: hci0, position: {x: 0}}
              - {host: pi, adapter: "a/b", position: {x: 0, y: 0}, capacity: 0}
              - {host: pi2, adapter: hci0, position: {x: 1, y: 1, step: {x: 1}}}
            beacons:
              - {uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 70000, minor: 1, position: {x: 1, y: 1}}
              - {uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 1, minor: 1}
            """
        let expected: [(line: Int, column: Int, field: String, words: String)] = [
            (1, 7, "name", "lowercase letters"),
            (2, 15, "broker.url", "mqtt://"),
            (3, 15, "max_distance", "from 0.1 to 1000"),
            (4, 11, "failover", "nearest, none"),
            (6, 41, "position.y", "required"),
            (7, 25, "radios.adapter", "one topic level"),
            (7, 66, "radios.capacity", "from 1 to 65536"),
            (8, 55, "radios.position.step", "one point"),
            (10, 57, "major", "from 0 to 65535"),
            (11, 5, "position", "required in a site"),
        ]
        let issues = issues(of: text)
        #expect(issues.count == expected.count, "\(issues.map(\.description).joined(separator: "\n"))")
        for e in expected {
            #expect(issues.contains { $0.location.line == e.line && $0.location.column == e.column && $0.field == e.field && $0.message.contains(e.words) },
                    "expected \(e) in:\n\(issues.map(\.description).joined(separator: "\n"))")
        }
        #expect(issues.allSatisfy { $0.location.file == "bad.yaml" })
    }

    @Test func aRadioListedTwiceIsReportedAtTheSecond() {
        let issues = issues(of: """
            name: s
            radios:
              - {host: pi, adapter: hci0, position: {x: 0, y: 0}}
              - {host: pi, adapter: hci0, position: {x: 1, y: 0}}
            beacons:
              - {uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 1, minor: 1, position: {x: 1, y: 0}}
            """)
        #expect(issues.map { "\($0.location.line):\($0.location.column) \($0.field)" } == ["4:5 radios"])
        #expect(issues.first?.message.contains("pi/hci0 is listed twice (first at line 3)") == true)
    }

    @Test func aSiteOfMoreRadiosThanTheLimitIsRefusedBeforeAnyIsRead() {
        let radios = (0...Site.maximumRadios).map { "  - {host: h\($0), adapter: hci0, position: {x: \($0), y: 0}}" }
        let issues = issues(of: "name: s\nbroker: {url: mqtt://127.0.0.1}\nradios:\n" + radios.joined(separator: "\n")
                            + "\nbeacons:\n  - {uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 1, minor: 1, position: {x: 1, y: 0}}\n")
        #expect(issues.map { "\($0.location.line):\($0.location.column) \($0.field)" } == ["4:3 radios"], "\(issues)")
        #expect(issues.first?.message == "a site has at most 1024 radios (this one lists 1025); split it into several sites")
        // The limit itself is a site.
        let most = (0..<Site.maximumRadios).map { "  - {host: h\($0), adapter: hci0, position: {x: \($0), y: 0}}" }
        #expect(self.issues(of: "name: s\nbroker: {url: mqtt://127.0.0.1}\nradios:\n" + most.joined(separator: "\n")
                            + "\nbeacons:\n  - {uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 1, minor: 1, position: {x: 1, y: 0}}\n").isEmpty)
    }

    @Test func anMQTTSBrokerNeedsItsCertificateAuthorities() {
        let issues = issues(of: """
            name: s
            broker: {url: "mqtts://broker.lan", cert_file: me.crt}
            radios: [{host: pi, adapter: hci0, position: {x: 0, y: 0}}]
            beacons: [{uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 1, minor: 1, position: {x: 1, y: 0}}]
            """)
        #expect(Set(issues.map(\.field)) == ["broker.ca_file", "broker.key_file"])
    }

    @Test func profileFilesAreFoundBesideTheSiteAndClashesAcrossThemAreIssues() throws {
        let issues = issues(of: """
            name: s
            radios: [{host: pi, adapter: hci0, position: {x: 0, y: 0}}]
            profiles: [room-2m.yaml]
            beacons: [{uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 1, minor: 2, position: {x: 1, y: 0}}]
            """, file: PackageRoot.path("profiles/site.yaml"))
        // room-east is 25795A1D-… 1 2 too: the clash is reported in the profile file, as
        // `validate` reports clashes across files.
        #expect(issues.count == 1)
        #expect(issues.first?.field == "identity")
    }

    @Test func aBeaconOfAProfileFileWithoutAPositionIsReportedInThatFile() {
        let issues = issues(of: """
            name: s
            radios: [{host: pi, adapter: hci0, position: {x: 0, y: 0}}]
            profiles: [bm1.yaml]
            """, file: PackageRoot.path("profiles/site.yaml"))
        #expect(!issues.isEmpty)
        #expect(issues.allSatisfy { $0.field == "position" && $0.location.file.hasSuffix("profiles/bm1.yaml") })
    }

    private func issues(of text: String, file: String = "bad.yaml") -> [ProfileIssue] {
        do {
            _ = try SiteLoader.parse(text, file: file)
            return []
        } catch {
            return error.issues
        }
    }
}
