// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
@testable import BeaconSite

/// A host's Last Will followed at once by the same host coming back (its own reconnection taking
/// over its old session, an agent restarted at once) moves nothing (issue 35, item 2): its
/// beacons stay where they are through the controller's failover grace, and only a host that is
/// not back by its end is failed over. An in-process controller on a real Mosquitto; the hosts
/// are the hosts' own users publishing their status as an agent and its will would. The verdict
/// is an order of events and the internal end-of-grace seam, never a wait that happens to be
/// long enough.
@Suite(.serialized) struct FailoverGraceTests {
    static func placedOn(_ radio: String, _ events: [SiteController.Event]) -> [SiteController.Event] {
        events.filter { if case .desired(let r, _, _) = $0 { r.description == radio } else { false } }
    }

    static func index(of wanted: (SiteController.Event) -> Bool, in events: [SiteController.Event], after start: Int = 0) -> Int? {
        events.indices.first { $0 >= start && wanted(events[$0]) }
    }

    static func isHost(_ event: SiteController.Event, _ host: String, online: Bool) -> Bool {
        switch event {
        case .hostOnline(let h): online && h == host
        case .hostOffline(let h): !online && h == host
        default: false
        }
    }

    static func isDoorOffAir(_ event: SiteController.Event) -> Bool {
        if case .beacon(let id, _, false, _, _, _, _) = event { id == ControllerTests.door } else { false }
    }

    /// Both hosts online, the door placed on pi-a and the desk on pi-b (the fixture is the
    /// broker: kept alive for the test).
    static func start(failoverGrace: Duration) async throws -> (SiteFixture, StopUnderLoadTests.RunningController, TopicWatcher, SiteTopics) {
        let fixture = try await SiteFixture(hosts: ["pi-a", "pi-b"], radios: ControllerTests.radios, beacons: ControllerTests.beacons)
        let topics = SiteTopics(site: "lab")
        let a = try await fixture.watcher(SiteFixture.hostUser("pi-a"), subscribing: [])
        let b = try await fixture.watcher(SiteFixture.hostUser("pi-b"), subscribing: [])
        try await a.publish(topics.hostStatus("pi-a"), SiteTopics.online)
        try await b.publish(topics.hostStatus("pi-b"), SiteTopics.online)
        let running = try await StopUnderLoadTests.RunningController(fixture, failoverGrace: failoverGrace)
        let placed = await running.log.wait { events in
            events.contains { if case .placed(_, let p) = $0 { p.assignments.contains { $0.id == ControllerTests.door && $0.radio.description == "pi-a/virtual" } } else { false } }
        }
        #expect(placed, "\(running.log.all)")
        return (fixture, running, a, topics)
    }

    @Test func aHostBackWithinTheGraceKeepsItsBeaconsAndNothingMoves() async throws {
        // A grace no test run outlasts: the host's return, not the clock, ends it.
        let (fixture, running, a, topics) = try await Self.start(failoverGrace: .seconds(3600))
        defer { running.stop(); withExtendedLifetime(fixture) {} }
        let log = running.log
        let before = log.all.count
        try await a.publish(topics.hostStatus("pi-a"), SiteTopics.offline)
        // The will counted (the controller's marker came back): pi-a is said to be offline.
        #expect(await log.wait { Self.index(of: { Self.isHost($0, "pi-a", online: false) }, in: $0, after: before) != nil }, "\(log.all)")
        try await a.publish(topics.hostStatus("pi-a"), SiteTopics.online)
        #expect(await log.wait { Self.index(of: { Self.isHost($0, "pi-a", online: true) }, in: $0, after: before) != nil }, "\(log.all)")
        let since = Array(log.all.dropFirst(before))
        // Nothing moved and the door was never said to be off air: without the grace, pi-b got
        // both beacons and the door went off air the moment the will counted.
        #expect(Self.placedOn("pi-b/virtual", since).isEmpty, "\(since)")
        #expect(Self.placedOn("pi-a/virtual", since).isEmpty, "\(since)")
        #expect(!since.contains(where: Self.isDoorOffAir), "\(since)")
    }

    @Test func aHostNotBackByTheEndOfTheGraceIsFailedOver() async throws {
        let grace = Duration.milliseconds(500)
        let (fixture, running, a, topics) = try await Self.start(failoverGrace: grace)
        defer { running.stop(); withExtendedLifetime(fixture) {} }
        let ended = StopUnderLoadTests.Log<[String]>()
        running.controller.leftAfterGrace.withLock { $0 = { ended.append($0) } }
        let log = running.log
        let before = log.all.count
        let clock = ContinuousClock()
        let sent = clock.now
        try await a.publish(topics.hostStatus("pi-a"), SiteTopics.offline)
        #expect(await ended.wait { $0 == [["pi-a"]] }, "\(ended.all) \(log.all)")
        let movedAt = clock.now
        #expect(await log.wait { !Self.placedOn("pi-b/virtual", Array($0.dropFirst(before))).isEmpty }, "\(log.all)")
        let since = Array(log.all.dropFirst(before))
        // Said offline first; the door off air and moved only after the grace.
        let offline = Self.index(of: { Self.isHost($0, "pi-a", online: false) }, in: since)
        let offAir = Self.index(of: Self.isDoorOffAir, in: since)
        let moved = Self.index(of: { if case .desired(let r, _, 2) = $0 { r.description == "pi-b/virtual" } else { false } }, in: since)
        #expect(offline != nil && offAir != nil && moved != nil, "\(since)")
        if let offline, let offAir, let moved { #expect(offline < offAir && offAir < moved, "\(since)") }
        // A lower bound only (a sleep never ends early): the grace was waited for.
        #expect(movedAt - sent >= grace)
        // Back later: said online, and the door goes back to the radio nearest it.
        try await a.publish(topics.hostStatus("pi-a"), SiteTopics.online)
        #expect(await log.wait { !Self.placedOn("pi-a/virtual", Array($0.dropFirst(before))).isEmpty }, "\(log.all)")
    }
}
