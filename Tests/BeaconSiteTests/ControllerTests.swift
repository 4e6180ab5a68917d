// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
@testable import BeaconSite

/// `beacon site SITE` with two `beacon agent`s on a real Mosquitto (virtual radios): the desired
/// fleets go out and the beacons are reported on air; an agent killed is noticed through its Last
/// Will, its beacons reported off air and placed again on the other radio; a controller killed and
/// restarted adopts what is on air without sending a thing.
@Suite(.serialized) struct ControllerTests {
    static let uuid = "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061"
    static let radios = """
          - {host: pi-a, adapter: virtual, position: {x: 0, y: 0}}
          - {host: pi-b, adapter: virtual, position: {x: 10, y: 0}}
        """
    static let beacons = """
          - {name: door, uuid: \(uuid), major: 7, minor: 1, position: {x: 1, y: 0}}
          - {name: desk, uuid: \(uuid), major: 7, minor: 2, position: {x: 9, y: 0}}
        """
    static let door = "8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-7-1"
    static let desk = "8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-7-2"

    /// The two-host site of these tests running: a controller and both agents, until the door is
    /// on air from pi-a and the desk from pi-b (each killed when the test ends, in `defer`).
    struct Running {
        let site: SiteFixture
        let controller: BackgroundProgram
        let a: BackgroundProgram
        let b: BackgroundProgram
        var all: [BackgroundProgram] { [controller, a, b] }
    }

    static func startSite(persistentBroker: Bool = false) async throws -> Running {
        let site = try await SiteFixture(hosts: ["pi-a", "pi-b"], radios: radios, beacons: beacons, persistentBroker: persistentBroker)
        let controller = try site.start(["site", site.siteFile, "--json"], as: SiteFixture.controller)
        let a = try site.start(["agent", "--site", site.siteFile, "--host", "pi-a", "--json"], as: SiteFixture.hostUser("pi-a"))
        let b = try site.start(["agent", "--site", site.siteFile, "--host", "pi-b", "--json"], as: SiteFixture.hostUser("pi-b"))
        let running = Running(site: site, controller: controller, a: a, b: b)
        let both = await controller.waitForOutput(timeout: .seconds(60)) { _ in
            onAir(controller, door, on: "pi-a/virtual") && onAir(controller, desk, on: "pi-b/virtual")
        }
        #expect(both, "controller:\n\(controller.output)\npi-a:\n\(a.output)\npi-b:\n\(b.output)")
        return running
    }

    static func events(_ program: BackgroundProgram) -> [[String: Any]] {
        program.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func onAir(_ program: BackgroundProgram, _ id: String, on radio: String) -> Bool {
        events(program).contains { $0["event"] as? String == "beacon" && $0["id"] as? String == id && $0["on_air"] as? Bool == true && $0["radio"] as? String == radio }
    }

    /// A host may publish states under adapter names the site has not: the controller keeps and
    /// reports only its radios' (20,000 invented ones took its memory from 39 to 157 MB). The
    /// invented radio's refusal comes first; the real radio's after it proves it was read past.
    @Test func statesOfRadiosAHostInventsAreDropped() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let host = try await running.site.watcher(SiteFixture.hostUser("pi-a"), subscribing: [])
        func state(_ reason: String) -> String {
            #"{"revision":1,"beacons":[],"rejected":{"field":"beacons","value":"x","reason":"\#(reason)","line":1,"column":1,"issues":1}}"#
        }
        try await host.publish("beacon/lab/hosts/pi-a/invented/state", state("invented"), retain: false)
        try await host.publish("beacon/lab/hosts/pi-a/virtual/state", state("real"), retain: false)
        let controller = running.controller
        let real = await controller.waitForOutput(timeout: .seconds(60)) { _ in
            Self.events(controller).contains { $0["event"] as? String == "rejected" && $0["radio"] as? String == "pi-a/virtual" }
        }
        #expect(real, "\(controller.output)")
        #expect(!controller.stdout.contains("invented"), "\(controller.output)")
    }

    /// A state that is not one and a switch command that is neither ON nor OFF are dropped and
    /// said, once per topic (#35 item 14): a host's garbage is no longer ignored in silence.
    @Test func unreadableStatesAndSwitchCommandsAreSaidOncePerTopic() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let host = try await running.site.watcher(SiteFixture.hostUser("pi-a"), subscribing: [])
        let home = try await running.site.watcher(SiteFixture.controller, subscribing: [])
        let switchTopic = "beacon/lab/beacons/\(Self.door)/set"
        for _ in 0..<2 {
            try await host.publish("beacon/lab/hosts/pi-a/virtual/state", "garbage\u{1b}]0;x\u{07}", retain: false)
            try await home.publish(switchTopic, "MAYBE", retain: false)
        }
        // A readable state after them proves both were read past.
        try await home.publish(switchTopic, "OFF", retain: false)
        let controller = running.controller
        let offAir = await controller.waitForOutput(timeout: .seconds(60)) { _ in
            // Switched off: the door's earlier "waiting" line is off air too, and came before.
            Self.events(controller).contains { $0["event"] as? String == "beacon" && $0["id"] as? String == Self.door && $0["reason"] as? String == "switched off" }
        }
        #expect(offAir, "\(controller.output)")
        let ignored = Self.events(controller).filter { $0["event"] as? String == "ignored" }
        #expect(ignored.compactMap { $0["topic"] as? String }.sorted() == ["beacon/lab/hosts/pi-a/virtual/state", switchTopic].sorted(), "\(controller.output)")
        #expect(ignored.first { $0["topic"] as? String == switchTopic }?["reason"] as? String == "a switch command is ON or OFF")
    }

    @Test func anAgentKilledIsReportedOffAirAndItsBeaconsArePlacedAgain() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, controller, a, b) = (running.site, running.controller, running.a, running.b)
        let watcher = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/beacons/+/state", "homeassistant/#"])
        let topics = SiteTopics(site: "lab")
        #expect(await watcher.wait(on: topics.beaconState(Self.door)) { String(decoding: $0, as: UTF8.self) == "ON" ? true : nil } == true)
        #expect(await watcher.wait(on: topics.discoverySwitch(Self.door)) { $0.isEmpty ? nil : true } == true)

        // pi-a dies without a word: its Last Will says offline (at once when the kernel closes
        // its socket; within 1.5 keepalives, 7.5 s, when the host itself is gone).
        let before = Self.events(controller).count
        let doorStatesBefore = watcher.heard(topics.beaconState(Self.door)).count
        a.send(SIGKILL)
        let failedOver = await controller.waitForOutput(timeout: .seconds(60)) { _ in Self.onAir(controller, Self.door, on: "pi-b/virtual") }
        #expect(failedOver, "controller:\n\(controller.output)\npi-b:\n\(b.output)")
        let events = Array(Self.events(controller).dropFirst(before))
        let offline = events.firstIndex { $0["event"] as? String == "host_offline" && $0["host"] as? String == "pi-a" }
        let reportedOff = events.firstIndex { $0["event"] as? String == "beacon" && $0["id"] as? String == Self.door && $0["on_air"] as? Bool == false }
        let moved = events.firstIndex { $0["event"] as? String == "desired" && $0["radio"] as? String == "pi-b/virtual" && $0["beacons"] as? Int == 2 }
        #expect(offline != nil && reportedOff != nil && moved != nil, "\(controller.output)")
        if let offline, let reportedOff, let moved { #expect(offline < reportedOff && reportedOff < moved) }
        #expect((events[reportedOff ?? 0]["reason"] as? String)?.contains("pi-a is offline") == true)
        // The --json lines of both commands match their schemas (docs/schema/).
        let verdict = try SiteSchemaTests.validateLines([("site-event.schema.json", controller.stdout), ("site-agent-event.schema.json", a.stdout + b.stdout)])
        #expect(verdict.status == 0, "\(verdict)")
        // The desk never moved: pi-b applied revision 2 with both, the desk on air all along.
        // Home Assistant heard the door go OFF, then ON again (not only the ON from before).
        let doorOffThenOn = await StopUnderLoadTests.Log<Int>.until {
            let words = watcher.heard(topics.beaconState(Self.door)).dropFirst(doorStatesBefore).map { String(decoding: $0, as: UTF8.self) }
            return words.firstIndex(of: "OFF").map { words[$0...].contains("ON") } ?? false
        }
        #expect(doorOffThenOn, "\(watcher.heard(topics.beaconState(Self.door)).map { String(decoding: $0, as: UTF8.self) })")
        #expect(!Self.events(controller).dropFirst(before).contains { $0["event"] as? String == "beacon" && $0["id"] as? String == Self.desk && $0["on_air"] as? Bool == false })
    }

    @Test func aRestartedControllerAdoptsWhatIsOnAirWithoutChurn() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, first, a, b) = (running.site, running.controller, running.a, running.b)
        first.send(SIGKILL)
        _ = await first.waitForExit(timeout: .seconds(10))

        let second = try site.start(["site", site.siteFile, "--json"], as: SiteFixture.controller)
        defer { second.send(SIGKILL) }
        #expect(await second.waitForOutput(timeout: .seconds(60)) { _ in Self.events(second).contains { $0["event"] as? String == "ready" } }, "\(second.output)")
        let events = Self.events(second)
        let adopted = try #require(events.first { $0["event"] as? String == "adopted" })
        #expect(adopted["radios"] as? Int == 2 && adopted["beacons"] as? Int == 2)
        // Nothing new published: no desired revision, and the agents applied revision 1 only.
        #expect(!events.contains { $0["event"] as? String == "desired" }, "\(second.output)")
        for agent in [a, b] {
            let applied = Self.events(agent).filter { $0["event"] as? String == "applied" }
            #expect(applied.map { $0["revision"] as? Int } == [1], "\(agent.output)")
        }
        // And it still knows both beacons are on air.
        #expect(await second.waitForOutput(timeout: .seconds(60)) { _ in
            Self.onAir(second, Self.door, on: "pi-a/virtual") && Self.onAir(second, Self.desk, on: "pi-b/virtual")
        }, "\(second.output)")
        second.send(SIGTERM)
        #expect(await second.waitForExit(timeout: .seconds(10)) == 0, "\(second.output)")
    }

    @Test func anEditedSiteFileOnSIGHUPSendsOnlyTheDifference() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, controller, a, b) = (running.site, running.controller, running.a, running.b)
        let text = try String(contentsOfFile: site.siteFile, encoding: .utf8)

        // A broken edit: reported, nothing sent.
        try (text + "  - {name: shelf, uuid: \(Self.uuid), major: 70000, minor: 3, position: {x: 8, y: 0}}\n").write(toFile: site.siteFile, atomically: true, encoding: .utf8)
        controller.send(SIGHUP)
        #expect(await controller.waitForOutput(timeout: .seconds(60)) { _ in controller.stderr.contains("the site stays as it was") }, "\(controller.output)")
        #expect(controller.stderr.contains("major: 70000: must be an integer from 0 to 65535"), "\(controller.output)")

        // A good one: a beacon near pi-b. Only pi-b's fleet changes.
        let before = Self.events(controller).count
        try (text + "  - {name: shelf, uuid: \(Self.uuid), major: 7, minor: 3, position: {x: 8, y: 0}}\n").write(toFile: site.siteFile, atomically: true, encoding: .utf8)
        controller.send(SIGHUP)
        let shelf = "8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-7-3"
        #expect(await controller.waitForOutput(timeout: .seconds(60)) { _ in Self.onAir(controller, shelf, on: "pi-b/virtual") }, "\(controller.output)\npi-b:\n\(b.output)")
        let desired = Self.events(controller).dropFirst(before).filter { $0["event"] as? String == "desired" }
        #expect(desired.map { $0["radio"] as? String } == ["pi-b/virtual"], "\(controller.output)")
        #expect(desired.first?["revision"] as? Int == 2 && desired.first?["beacons"] as? Int == 2)
        #expect(Self.events(a).filter { $0["event"] as? String == "applied" }.map { $0["revision"] as? Int } == [1], "\(a.output)")

        // The shelf removed again: Home Assistant's entity for it is removed (an empty config).
        let watcher = try await site.watcher(SiteFixture.controller, subscribing: ["homeassistant/#"])
        let topics = SiteTopics(site: "lab")
        #expect(await watcher.wait(on: topics.discoverySwitch(shelf)) { $0.isEmpty ? nil : true } == true)
        try text.write(toFile: site.siteFile, atomically: true, encoding: .utf8)
        controller.send(SIGHUP)
        #expect(await watcher.wait(on: topics.discoverySwitch(shelf)) { $0.isEmpty ? true : nil } == true, "\(controller.output)")
        #expect(await b.waitForOutput(timeout: .seconds(60)) { _ in Self.events(b).contains { $0["event"] as? String == "applied" && $0["revision"] as? Int == 3 && $0["beacons"] as? Int == 1 } }, "\(b.output)")
    }

    @Test func homeAssistantsSwitchTakesABeaconOffAirAndBack() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, controller, a) = (running.site, running.controller, running.a)
        let topics = SiteTopics(site: "lab")
        let ha = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/beacons/+/state"])
        try await ha.publish(topics.beaconSet(Self.door), "OFF", retain: false)
        #expect(await ha.wait(on: topics.beaconState(Self.door)) { String(decoding: $0, as: UTF8.self) == "OFF" ? true : nil } == true, "\(controller.output)")
        #expect(await controller.waitForOutput(timeout: .seconds(60)) { _ in
            Self.events(controller).contains { $0["event"] as? String == "beacon" && $0["id"] as? String == Self.door && $0["reason"] as? String == "switched off" }
        }, "\(controller.output)")
        #expect(await a.waitForOutput(timeout: .seconds(60)) { _ in Self.events(a).contains { $0["event"] as? String == "applied" && $0["beacons"] as? Int == 0 } }, "\(a.output)")
        try await ha.publish(topics.beaconSet(Self.door), "ON", retain: false)
        #expect(await ha.wait(on: topics.beaconState(Self.door)) { String(decoding: $0, as: UTF8.self) == "ON" ? true : nil } == true, "\(controller.output)")
    }

    /// The switch-off is kept (retained `…/switch`): a controller killed and restarted keeps the
    /// beacon off air and its switch OFF, and sends nothing; switched on again, it goes back.
    @Test func aBeaconSwitchedOffStaysOffAcrossAControllerRestart() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, first, a) = (running.site, running.controller, running.a)
        let topics = SiteTopics(site: "lab")
        let ha = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/beacons/+/state", "beacon/lab/beacons/+/switch"])
        try await ha.publish(topics.beaconSet(Self.door), "OFF", retain: false)
        #expect(await ha.wait(on: topics.beaconSwitch(Self.door)) { String(decoding: $0, as: UTF8.self) == "OFF" ? true : nil } == true, "\(first.output)")
        #expect(await a.waitForOutput(timeout: .seconds(60)) { _ in Self.events(a).contains { $0["event"] as? String == "applied" && $0["beacons"] as? Int == 0 } }, "\(a.output)")
        first.send(SIGKILL)
        _ = await first.waitForExit(timeout: .seconds(10))

        let second = try site.start(["site", site.siteFile, "--json"], as: SiteFixture.controller)
        defer { second.send(SIGKILL) }
        // `ready` is reported after the beacons' states: waited for too, not assumed.
        #expect(await second.waitForOutput(timeout: .seconds(60)) { _ in
            Self.events(second).contains { $0["event"] as? String == "beacon" && $0["id"] as? String == Self.door && $0["reason"] as? String == "switched off" }
                && Self.events(second).contains { $0["event"] as? String == "ready" }
        }, "\(second.output)")
        let events = Self.events(second)
        #expect(events.contains { $0["event"] as? String == "ready" })
        // Nothing published: pi-a keeps its empty fleet (revision 2), the door off air.
        #expect(!events.contains { $0["event"] as? String == "desired" }, "\(second.output)")
        #expect(!events.contains { $0["event"] as? String == "beacon" && $0["id"] as? String == Self.door && $0["on_air"] as? Bool == true })
        #expect(Self.events(a).filter { $0["event"] as? String == "applied" }.map { $0["revision"] as? Int } == [1, 2], "\(a.output)")
        #expect(String(decoding: ha.payload(topics.beaconState(Self.door)) ?? [], as: UTF8.self) == "OFF")

        // Switched on through the restarted controller: back on air, and nothing kept any more.
        try await ha.publish(topics.beaconSet(Self.door), "ON", retain: false)
        #expect(await ha.wait(on: topics.beaconState(Self.door)) { String(decoding: $0, as: UTF8.self) == "ON" ? true : nil } == true, "\(second.output)")
        #expect(await ha.wait(on: topics.beaconSwitch(Self.door)) { $0.isEmpty ? true : nil } == true)
        #expect(await a.waitForOutput(timeout: .seconds(60)) { _ in Self.events(a).contains { $0["event"] as? String == "applied" && $0["revision"] as? Int == 3 && $0["beacons"] as? Int == 1 } }, "\(a.output)")
    }

    @Test func theBrokerRestartedEverythingComesBackWithoutChurn() async throws {
        try await Self.restartTheBroker(orderly: false)
    }

    /// A broker stopped the orderly way (SIGTERM, as `systemctl restart mosquitto` does) sends
    /// every client's Last Will to the clients still connected before it closes: the controller
    /// hears every host go offline as the broker goes. Those wills are not acted on (no failover,
    /// no beacon reported off air, nothing applied again).
    @Test func theBrokerStoppedTheOrderlyWayItsLastWillsChurnNothing() async throws {
        try await Self.restartTheBroker(orderly: true)
    }

    /// Debian's Mosquitto persists: stopped the orderly way, it keeps every host's Last Will
    /// (`offline`, retained) and hands them to the controller when it subscribes again, maybe
    /// before the agents are back to say `online`. None of them takes a host for gone.
    @Test func aPersistentBrokerRestartedTheOrderlyWayChurnsNothing() async throws {
        try await Self.restartTheBroker(orderly: true, persistent: true)
    }

    /// A host that dies while the broker is away sends no Last Will anyone hears: once the
    /// broker is back, it alone does not say `online` again within the controller's grace, and
    /// is taken for gone then; its beacon is placed on the other radio, whose own never leaves.
    @Test func anAgentThatDiesWhileTheBrokerIsAwayIsTakenForGoneAfterTheGrace() async throws {
        let running = try await Self.startSite()
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, controller, b) = (running.site, running.controller, running.b)
        let before = Self.events(controller).count
        try await site.broker.stop()
        #expect(await controller.waitForOutput(timeout: .seconds(60)) { _ in Self.events(controller).contains { $0["event"] as? String == "disconnected" } })
        b.send(SIGKILL)
        #expect(await b.waitForExit(timeout: .seconds(10)) != nil)
        try await site.broker.start()
        let movedOver = await controller.waitForOutput(timeout: .seconds(60)) { _ in Self.onAir(controller, Self.desk, on: "pi-a/virtual") }
        #expect(movedOver, "controller:\n\(controller.output)\npi-a:\n\(running.a.output)")
        let since = Array(Self.events(controller).dropFirst(before))
        let offline = since.firstIndex { $0["event"] as? String == "host_offline" && $0["host"] as? String == "pi-b" }
        let reconnected = since.lastIndex { $0["event"] as? String == "connected" }
        #expect(offline != nil && reconnected != nil && reconnected! < offline!, "\(controller.output)")
        #expect(!since.contains { $0["event"] as? String == "host_offline" && $0["host"] as? String == "pi-a" }, "\(controller.output)")
        #expect(!since.contains { $0["event"] as? String == "beacon" && $0["id"] as? String == Self.door && $0["on_air"] as? Bool == false },
                "\(controller.output)")
    }

    static func restartTheBroker(orderly: Bool, persistent: Bool = false) async throws {
        let running = try await Self.startSite(persistentBroker: persistent)
        defer { for p in running.all { p.send(SIGKILL) } }
        let (site, controller, a, b) = (running.site, running.controller, running.a, running.b)
        // Without persistence every retained message is gone with the broker (kill -9, or
        // SIGTERM); with it, the hosts' wills stay as their retained status.
        let before = Self.events(controller).count
        if orderly { try await site.broker.stop() } else { try await site.broker.kill() }
        #expect(await controller.waitForOutput(timeout: .seconds(60)) { _ in Self.events(controller).contains { $0["event"] as? String == "disconnected" } })
        try await site.broker.start()
        let topics = SiteTopics(site: "lab")
        let watcher = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/#"])
        // Everything retained is back: the desired fleets (same revision), the states, ON.
        for (id, radio) in [(Self.door, SiteRadio.ID(host: "pi-a", adapter: "virtual")), (Self.desk, SiteRadio.ID(host: "pi-b", adapter: "virtual"))] {
            #expect(await watcher.wait(on: topics.beaconState(id), timeout: .seconds(60)) { String(decoding: $0, as: UTF8.self) == "ON" ? true : nil } == true, "\(controller.output)")
            let desired = await watcher.wait(on: topics.desired(radio)) { try? DesiredFleet.read($0, topic: "t").get() }
            #expect(desired?.revision == 1 && desired?.beacons.count == 1)
            #expect(await watcher.wait(on: topics.state(radio)) { RadioStateReport(payload: $0)?.beacons.first?.state == .onAir ? true : nil } == true)
        }
        #expect(await watcher.wait(on: topics.controllerStatus) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil } == true)
        // No agent put anything on air again: revision 1 applied once each.
        for agent in [a, b] {
            #expect(Self.events(agent).filter { $0["event"] as? String == "applied" }.map { $0["revision"] as? Int } == [1], "\(agent.output)")
        }
        // Neither host taken for gone, no beacon said off air.
        let since = Self.events(controller).dropFirst(before)
        #expect(!since.contains { $0["event"] as? String == "host_offline" || ($0["event"] as? String == "beacon" && $0["on_air"] as? Bool == false) },
                "\(controller.output)")
        try await Self.expectDesiredFleetsRepublished(persistent ? 0 : 2, by: controller, since: before, on: site.broker)
    }

    /// After the reconnection, the controller read back the desired fleets the restarted broker
    /// retains and published again only those it lacks: `count` of the 2. Checked on the broker's
    /// own log of this run (every PUBLISH it received), once the beacon states the controller
    /// republishes after the desired fleets (one ordered queue) have arrived there.
    static func expectDesiredFleetsRepublished(_ count: Int, by controller: BackgroundProgram, since before: Int, on broker: MosquittoBroker) async throws {
        let resynced = await controller.waitForOutput(timeout: .seconds(60)) { _ in
            Self.events(controller).dropFirst(before).contains { $0["event"] as? String == "resynced" }
        }
        let event = try #require(Self.events(controller).dropFirst(before).first { $0["event"] as? String == "resynced" }, "\(controller.output)")
        #expect(resynced && event["republished"] as? Int == count && event["unchanged"] as? Int == 2 - count, "\(controller.output)")
        func received(_ topic: String) -> Int {
            let run = broker.log.components(separatedBy: "--- (restarted)\n").last ?? ""
            return run.split(separator: "\n").filter { $0.contains("Received PUBLISH from \(SiteFixture.controller.name) ") && $0.contains("'\(topic)'") }.count
        }
        let topics = SiteTopics(site: "lab")
        let deadline = ContinuousClock.now + .seconds(60)  // a hang bound only
        while received(topics.beaconState(desk)) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(received(topics.beaconState(desk)) > 0, "\(broker.log)")
        let desired = ["pi-a", "pi-b"].map { received(topics.desired(SiteRadio.ID(host: $0, adapter: "virtual"))) }
        #expect(desired == [count / 2, count / 2], "\(broker.log)")
    }
}
