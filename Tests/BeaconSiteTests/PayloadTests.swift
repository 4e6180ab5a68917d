// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
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
