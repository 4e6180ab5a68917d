// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
@testable import BeaconSite

/// `beacon play SCENARIO --site SITE` on a real Mosquitto with two agents on virtual radios: the
/// scenario's beacons go on air on the radio nearest each, and a step that hides one takes it
/// off air on its own agent only.
@Suite(.serialized) struct PlaySiteTests {
    static let radios = """
          - {host: west, adapter: virtual, position: {x: 0, y: 0}}
          - {host: east, adapter: virtual, position: {x: 30, y: 0}}
        """

    @Test func aStepThatHidesABeaconTakesItOffAirOnItsOwnAgent() async throws {
        // The site file's own beacon is not played: the scenario's are.
        let site = try await SiteFixture(hosts: ["west", "east"], radios: Self.radios, beacons: AgentTests.beacons)
        let scenario = site.directory.appendingPathComponent("scenario.yaml").path
        try Data("""
            name: hide-desk
            fleet:
              defaults: {uuid: \(AgentTests.uuid), major: 9, measured_power: -59}
              beacons:
                - {name: door, minor: 1, position: {x: 1, y: 0}}
                - {name: desk, minor: 2, position: {x: 29, y: 0}}
            steps:
              - {at: 2s, hide: desk}
            duration: 3s

            """.utf8).write(to: URL(fileURLWithPath: scenario))
        let topics = SiteTopics(site: "lab")
        let west = SiteRadio.ID(host: "west", adapter: "virtual")
        let east = SiteRadio.ID(host: "east", adapter: "virtual")
        let watcher = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
        let agents = try ["west", "east"].map { try site.start(["agent", "--site", site.siteFile, "--host", $0, "--json"], as: SiteFixture.hostUser($0)) }
        defer { for agent in agents { agent.send(SIGKILL) } }
        for host in ["west", "east"] {
            let online = await watcher.wait(on: topics.hostStatus(host)) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil }
            #expect(online == true, "\(agents.map(\.output))")
        }
        let play = try site.start(["play", scenario, "--site", site.siteFile, "--json"], as: SiteFixture.controller)
        defer { play.send(SIGKILL) }
        let doorID = "8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-9-1"
        let deskID = "8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-9-2"
        // Each on the radio nearest it, on air.
        // Each is on air for 2 s only: looked for among every state heard, not only the last.
        let first = await watcher.waitForAny(on: topics.state(east)) { p in
            RadioStateReport(payload: p).flatMap { $0.beacons.contains { $0.id == deskID && $0.state == .onAir } ? $0 : nil }
        }
        #expect(first != nil, "play:\n\(play.output)\nagents:\n\(agents.map(\.output))")
        let doorOnWest = await watcher.waitForAny(on: topics.state(west)) { p in
            RadioStateReport(payload: p).flatMap { $0.beacons.contains { $0.id == doorID && $0.state == .onAir } ? $0 : nil }
        }
        let westRevision = try #require(doorOnWest, "\(play.output)").revision
        // The step: desk off air on east; door untouched on west.
        let hidden = await watcher.wait(on: topics.state(east)) { p in
            RadioStateReport(payload: p).flatMap { r in (r.revision ?? 0) > (first?.revision ?? 0) && !r.beacons.contains { $0.id == deskID && $0.state == .onAir } ? r : nil }
        }
        #expect(hidden != nil, "play:\n\(play.output)\nagents:\n\(agents.map(\.output))")
        #expect(await play.waitForExit(timeout: .seconds(60)) == 0, "\(play.output)")
        let lines = AgentTests.jsonLines(play.stdout)
        #expect(lines.contains { $0["event"] as? String == "scenario-step" && ($0["changes"] as? [String])?.first?.contains("desk") == true }, "\(play.output)")
        let afterWest = try #require(RadioStateReport(payload: watcher.payload(topics.state(west)) ?? []))
        #expect(afterWest.revision == westRevision)
        #expect(afterWest.beacons.map(\.id) == [doorID] && afterWest.beacons.allSatisfy { $0.state == .onAir })
        // The east agent applied the step; the west agent got nothing after the first fleet.
        let eastApplied = AgentTests.jsonLines(agents[1].stdout).filter { $0["event"] as? String == "applied" }
        #expect(eastApplied.count == 2 && eastApplied.last?["beacons"] as? Int == 0, "\(agents[1].output)")
        let westApplied = AgentTests.jsonLines(agents[0].stdout).filter { ["applied", "unchanged"].contains($0["event"] as? String ?? "") }
        #expect(westApplied.count == 1, "\(agents[0].output)")
    }

    @Test func aScenarioBeaconWithoutAPositionIsRefusedBeforeTheBrokerIsAsked() async throws {
        let site = try await SiteFixture(hosts: ["west", "east"], radios: Self.radios, beacons: AgentTests.beacons)
        let scenario = site.directory.appendingPathComponent("scenario.yaml").path
        try Data("""
            fleet:
              defaults: {uuid: \(AgentTests.uuid), major: 9}
              beacons:
                - {name: door, minor: 1}
            steps:
              - {at: 1s, hide: door}

            """.utf8).write(to: URL(fileURLWithPath: scenario))
        let play = try site.start(["play", scenario, "--site", site.siteFile], as: SiteFixture.controller)
        defer { play.send(SIGKILL) }
        #expect(await play.waitForExit(timeout: .seconds(60)) == 65, "\(play.output)")
        #expect(play.stderr.contains("beacon door has no position"), "\(play.output)")
        // Refused before the broker is asked: no client connected as the controller's user.
        #expect(!site.broker.log.contains("u'\(SiteFixture.controller.name)'"), "\(site.broker.log)")
    }
}
