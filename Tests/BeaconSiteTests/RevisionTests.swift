// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
import BeaconProfiles
import Foundation
import Testing
import TestSupport
@testable import BeaconSite

/// Revisions only move forward (issue 35, item 10; issue 37, item 2), on a real Mosquitto: an
/// agent refuses a desired fleet older than the one its radio runs, or the same revision with
/// other beacons, and says so in its state; the controller answers an agent that runs a newer
/// revision than it published, or refused one as not newer, with its own fleet above it. A stray
/// desired message (another client's, a broker's old save) never leaves the site diverged.
@Suite(.serialized) struct RevisionTests {
    static func state(_ watcher: TopicWatcher, _ topic: String, _ condition: @escaping (RadioStateReport) -> Bool) async -> RadioStateReport? {
        await watcher.wait(on: topic) { p in RadioStateReport(payload: p).flatMap { condition($0) ? $0 : nil } }
    }

    @Test func anAgentRefusesAnOlderRevisionAndTheSameRevisionWithOtherBeacons() async throws {
        let (site, agent, controller) = try await AgentTests.startAgent()
        defer { agent.send(SIGKILL) }
        let (topics, radio) = (SiteTopics(site: "lab"), SiteRadio.ID(host: "pi", adapter: "virtual"))
        #expect(await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil } == true, "\(agent.output)")
        let beacons = try SiteLoader.load(contentsOf: site.siteFile).beacons
        func publish(_ revision: Int, _ beacons: [BeaconProfile]) async throws {
            try await controller.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: revision, beacons: beacons).payload,
                                                qos: .atLeastOnce, retain: true)
        }
        try await publish(3, beacons)
        let running = await Self.state(controller, topics.state(radio)) { $0.revision == 3 && $0.beacons.allSatisfy { $0.state == .onAir } }
        #expect(running?.beacons.count == 2, "\(agent.output)")

        // Older: refused, both stay on air under revision 3.
        try await publish(2, [])
        let older = await Self.state(controller, topics.state(radio)) { $0.rejected?.value == "2" }
        #expect(older?.rejected?.field == "revision", "\(agent.output)")
        #expect(older?.rejected?.reason == "older than revision 3, which this radio runs: a change needs a newer revision")
        #expect(older?.revision == 3 && older?.beacons.count == 2 && older?.beacons.allSatisfy { $0.state == .onAir } == true)

        // The same revision with other beacons: refused too.
        try await publish(3, [beacons[0]])
        let same = await Self.state(controller, topics.state(radio)) { $0.rejected?.reason.contains("other beacons") == true }
        #expect(same?.rejected?.reason == "this radio runs revision 3 with other beacons: a change needs a newer revision", "\(agent.output)")
        #expect(same?.revision == 3 && same?.beacons.count == 2)

        // Revision 3 as it runs (a republish) lifts the refusal; revision 4 is taken.
        try await publish(3, beacons)
        #expect(await Self.state(controller, topics.state(radio)) { $0.revision == 3 && $0.rejected == nil } != nil, "\(agent.output)")
        try await publish(4, [beacons[0]])
        let newer = await Self.state(controller, topics.state(radio)) { $0.revision == 4 }
        #expect(newer?.beacons.map(\.name) == ["door"] && newer?.rejected == nil, "\(agent.output)")
        let refusals = AgentTests.jsonLines(agent.stdout).filter { $0["event"] as? String == "rejected" }
        #expect(refusals.count == 2, "\(agent.output)")
    }

    @Test func aStrayDesiredFleetIsAnsweredWithTheControllersAboveIt() async throws {
        let running = try await ControllerTests.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, topics) = (running.site, SiteTopics(site: "lab"))
        let radio = SiteRadio.ID(host: "pi-a", adapter: "virtual")
        let watcher = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
        let first = try #require(await Self.state(watcher, topics.state(radio)) { $0.beacons.contains { $0.id == ControllerTests.door && $0.state == .onAir } })
        let revision = try #require(first.revision)
        func doorOnAir(above revision: Int) async -> RadioStateReport? {
            await Self.state(watcher, topics.state(radio)) { s in
                (s.revision ?? 0) > revision && s.rejected == nil && s.beacons.map(\.id) == [ControllerTests.door] && s.beacons.allSatisfy { $0.state == .onAir }
            }
        }

        // The same revision, no beacons: the agent refuses it, the controller publishes its own
        // fleet above it (the stray no longer what the broker retains).
        try await watcher.publish(topics.desired(radio), "{\"revision\":\(revision),\"beacons\":[]}")
        let answered = await doorOnAir(above: revision)
        #expect(answered != nil, "controller:\n\(running.controller.output)\npi-a:\n\(running.a.output)")
        let retained = watcher.payload(topics.desired(radio)).flatMap { try? DesiredFleet.read($0, topic: topics.desired(radio)).get() }
        #expect(retained?.revision == answered?.revision && retained?.beacons.count == 1)

        // A higher revision, no beacons: the agent takes it (it cannot know), and the controller
        // puts the door back above it.
        try await watcher.publish(topics.desired(radio), "{\"revision\":50,\"beacons\":[]}")
        let back = await doorOnAir(above: 50)
        #expect(back?.revision == 51, "controller:\n\(running.controller.output)\npi-a:\n\(running.a.output)")

        // A controller restarted on a broker that forgot its desired fleets starts above what the
        // agents run, not at revision 1.
        running.controller.send(SIGTERM)
        #expect(await running.controller.waitForExit(timeout: .seconds(10)) == 0, "\(running.controller.output)")
        for radio in [radio, SiteRadio.ID(host: "pi-b", adapter: "virtual")] {
            try await watcher.client.publish(topic: topics.desired(radio), payload: [], qos: .atLeastOnce, retain: true)
        }
        let again = try site.start(["site", site.siteFile, "--json"], as: SiteFixture.controller)
        defer { again.send(SIGKILL) }
        let restarted = await doorOnAir(above: 51)
        #expect(restarted != nil, "controller:\n\(again.output)\npi-a:\n\(running.a.output)")
    }
}
