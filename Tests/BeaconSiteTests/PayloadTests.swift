// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconJSON
import Foundation
import BeaconProfiles
import Testing
import TestSupport
@testable import BeaconSite

/// Desired fleets, state reports and topics: what goes through the broker.
@Suite struct PayloadTests {
    /// What a beacon puts on air and how, without where it was declared.
    static func onAir(_ b: BeaconProfile) -> String {
        "\(b.name) \(b.advertisingData) \(String(describing: b.scanResponse)) \(b.intervalMilliseconds) \(String(describing: b.txPower)) \(b.address) \(String(describing: b.telemetry)) \(String(describing: b.position))"
    }

    @Test(arguments: ["profiles/example.yaml", "profiles/station-160.yaml", "profiles/room-2m.yaml", "profiles/bm1.yaml"])
    func aDesiredFleetReadsBackToTheSameBeacons(profile: String) throws {
        let beacons = try ProfileLoader.load(contentsOf: PackageRoot.path(profile)).beacons
        let desired = DesiredFleet(revision: 42, beacons: beacons)
        let payload = desired.payload
        // JSON: the project's own reader takes it.
        _ = try JSONValue(parsing: String(decoding: payload, as: UTF8.self))
        let read = try DesiredFleet.read(payload, topic: "beacon/lab/hosts/pi/hci0/desired").get()
        #expect(read.revision == 42)
        #expect(read.beacons.map(Self.onAir) == beacons.map(Self.onAir))
        // Delivered twice (QoS 1 may): the same fleet.
        let again = try DesiredFleet.read(payload, topic: "beacon/lab/hosts/pi/hci0/desired").get()
        #expect(again.beacons.map(Self.onAir) == read.beacons.map(Self.onAir))
    }

    @Test func anEmptyDesiredFleetIsARadioWithNothingToCarry() throws {
        let read = try DesiredFleet.read(Array(#"{"revision": 3, "beacons": []}"#.utf8), topic: "t").get()
        #expect(read.revision == 3 && read.beacons.isEmpty)
    }

    @Test(arguments: [
        (#"{"revision": 1, "beacons": [{"uuid": "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061", "major": 70000, "minor": 1}]}"#, "major", 1, 87, "from 0 to 65535"),
        (#"{"beacons": []}"#, "revision", 1, 1, "required"),
        (#"{"revision": -1, "beacons": []}"#, "revision", 1, 14, "integer from 0"),
        (#"{"revision": 1, "beacons": [], "extra": 1}"#, "extra", 1, 32, "unknown key"),
        ("{\"revision\": 1,\n \"beacons\": [{\"uuid\": \"nope\", \"major\": 1, \"minor\": 1}]}", "uuid", 2, 23, "UUID"),
        (#"{"revision": 1, "beacons": [}"#, "yaml", 1, 29, "syntax"),
        (#"[1, 2]"#, "document", 1, 1, "an object"),
        // YAML that is not JSON: readable, but not the contract.
        (#"{revision: 1, beacons: []}"#, "payload", 1, 1, "must be JSON"),
        ("{\"revision\": 1, \"beacons\": []} # a comment", "payload", 1, 1, "must be JSON"),
    ] as [(String, String, Int, Int, String)])
    func aMalformedDesiredPayloadIsRefusedWithFieldAndReason(payload: String, field: String, line: Int, column: Int, words: String) {
        switch DesiredFleet.read(Array(payload.utf8), topic: "t") {
        case .success: Issue.record("accepted: \(payload)")
        case .failure(let rejection):
            #expect(rejection.field == field, "\(rejection)")
            #expect(rejection.line == line && rejection.column == column, "\(rejection)")
            #expect(rejection.reason.contains(words), "\(rejection)")
        }
    }

    @Test func notUTF8IsRefused() {
        guard case .failure(let rejection) = DesiredFleet.read([0xFF, 0xFE], topic: "t") else { Issue.record("accepted"); return }
        #expect(rejection.field == "payload")
    }

    @Test func aStateReportReadsBack() throws {
        let report = RadioStateReport(
            revision: 9,
            beacons: [BeaconState(id: "a-1-2", name: "a", state: .onAir, since: 1_700_000_000.25),
                      BeaconState(id: "b-1-3", name: "b", state: .error, reason: "the controller refused it", since: 1_700_000_001)],
            rejected: DesiredRejection(field: "major", value: "70000", reason: "must be an integer from 0 to 65535", line: 1, column: 77, issues: 1))
        let read = try #require(RadioStateReport(payload: report.payload))
        #expect(read == report)
        #expect(RadioStateReport(payload: Array("online".utf8)) == nil)
    }

    /// An agent's state always fits the bound the controller reads (16 MiB): a radio's most
    /// beacons (65,536) with the longest names (64 control characters, 6 bytes each escaped)
    /// and long reasons make a 50 MB state, which goes out without names and with reasons cut,
    /// every beacon and its state kept (#35: the controller dropped such a state whole).
    @Test func aStateTooLargeForTheControllerIsShortenedNotDropped() throws {
        let name = String(repeating: "\u{1}", count: 64)
        let reason = String(repeating: "r", count: 300)
        let seat = AdvertiserSeat(mode: .extendedRotation, advertiser: 239, slot: 65_535, slots: 65_536)
        // The longest identities a site has (an Eddystone UID's namespace and instance).
        let beacons = (0..<65_536).map { i in
            BeaconState(id: "uid-00112233445566778899-\(String(format: "%012x", 0xA0B0C0D00000 + i))", name: name,
                        state: i % 2 == 0 ? .onAir : .error, reason: i % 2 == 0 ? nil : reason, since: 1_700_000_000.123456, seat: seat)
        }
        let report = RadioStateReport(revision: Int(Int32.max), beacons: beacons,
                                      rejected: DesiredRejection(field: "beacons", value: String(repeating: "v", count: 100_000), reason: reason, line: 1, column: 1, issues: 9))
        #expect(report.payload.count > RadioStateReport.maximumPayloadSize)
        let bounded = report.boundedPayload
        #expect(bounded.count <= RadioStateReport.maximumPayloadSize, "\(bounded.count) bytes")
        let read = try #require(RadioStateReport(payload: bounded))
        #expect(read.beacons.map(\.id) == beacons.map(\.id) && read.beacons.map(\.state) == beacons.map(\.state))
        #expect(read.beacons.map(\.seat) == beacons.map(\.seat) && read.revision == report.revision)
        #expect((read.rejected?.value.count ?? .max) <= RadioStateReport.shortenedTextLength + 1)
        // A state that fits goes out whole, names and reasons and all.
        let small = RadioStateReport(revision: 1, beacons: Array(beacons.prefix(2)))
        #expect(small.boundedPayload == small.payload)
    }

    @Test func topicsAreWhereTheContractSaysAndParseBack() {
        let topics = SiteTopics(site: "lab")
        let radio = SiteRadio.ID(host: "pi-west", adapter: "hci0")
        #expect(topics.desired(radio) == "beacon/lab/hosts/pi-west/hci0/desired")
        #expect(topics.state(radio) == "beacon/lab/hosts/pi-west/hci0/state")
        #expect(topics.hostStatus("pi-west") == "beacon/lab/hosts/pi-west/status")
        #expect(topics.hostRadios("pi-west") == "beacon/lab/hosts/pi-west/radios")
        #expect(topics.hostTelemetry("pi-west") == "beacon/lab/hosts/pi-west/telemetry")
        #expect(topics.controllerStatus == "beacon/lab/controller/status")
        #expect(topics.beaconSet("x-1-2") == "beacon/lab/beacons/x-1-2/set")
        #expect(topics.parseHostTopic(topics.state(radio))! == ("pi-west", "hci0", "state"))
        #expect(topics.parseHostTopic(topics.hostStatus("pi-west"))! == ("pi-west", nil, "status"))
        #expect(topics.parseHostTopic("beacon/other/hosts/pi/status") == nil)
        #expect(topics.parseBeaconSet("beacon/lab/beacons/x-1-2/set") == "x-1-2")
        #expect(topics.parseBeaconSet("beacon/lab/beacons/x/y/set") == nil)
        #expect(topics.discoverySwitch("x-1-2") == "homeassistant/switch/beacon_lab_x-1-2/config")
        #expect(topics.discoveryConnectivity(SiteRadio.ID(host: "pi", adapter: "tcp:1.2.3.4:9")) == "homeassistant/binary_sensor/beacon_lab_pi_tcp_1_2_3_4_9/config")
    }
}
