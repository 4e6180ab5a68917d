// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconMQTT
import BeaconProfiles
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import BeaconSite

/// A stop is not queued behind what is being read (issue 35, item 4): the agent and the
/// controller, on a real Mosquitto, stop while a desired fleet or a radio's state is still being
/// read, and the read, once done, changes nothing. The reads here are held open by the test for as
/// long as it likes (the internal `readDesired` / `readState` seams), so the verdict is an order of
/// events, not a time: a run that waited for its read would never end while the read is held.
@Suite(.serialized) struct StopUnderLoadTests {
    /// A read held until the test lets it go; says when it has begun.
    final class Gate: Sendable {
        private let entered = Mutex(false)
        private let released = DispatchSemaphore(value: 0)
        private let opened = Mutex(false)

        /// Called by the read: blocks until ``open()``.
        func hold() {
            entered.withLock { $0 = true }
            released.wait()
        }

        var hasBegun: Bool { entered.withLock { $0 } }

        func open() {
            let first = opened.withLock { o in defer { o = true }; return !o }
            if first { released.signal() }
        }
    }

    /// What a run reported, and a wait for a report (20 ms polls; `timeout` a hang bound only).
    final class Log<Event: Sendable>: Sendable {
        private let events = Mutex<[Event]>([])
        func append(_ event: Event) { events.withLock { $0.append(event) } }
        var all: [Event] { events.withLock { $0 } }
        func wait(timeout: Duration = .seconds(60), _ condition: @escaping ([Event]) -> Bool) async -> Bool {
            await Self.until(timeout: timeout) { condition(self.all) }
        }

        static func until(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition()
        }
    }

    static let radios = "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}"

    static func environment(_ user: MosquittoBroker.User) -> [String: String] {
        ["BEACON_MQTT_USERNAME": user.name, "BEACON_MQTT_PASSWORD": user.password]
    }

    /// A controller of `fixture`'s site, in this process, as the site's controller user: made
    /// (``prepare`` may set its internal seams before it runs), run, and waited for until
    /// `ready`. ``stop()`` asks it to stop; ``hasEnded`` says its run is over.
    final class RunningController: Sendable {
        let site: Site
        let controller: SiteController
        let log = Log<SiteController.Event>()
        private let ended = Mutex(false)
        private let run = Mutex<Task<Void, Never>?>(nil)

        init(_ fixture: SiteFixture, failoverGrace: Duration = SiteController.defaultFailoverGrace,
             prepare: (SiteController) -> Void = { _ in }) async throws {
            site = try SiteLoader.load(contentsOf: fixture.siteFile)
            let client = try SiteController.client(for: site, broker: try #require(site.broker),
                                                   environment: StopUnderLoadTests.environment(SiteFixture.controller))
            let log = log
            controller = SiteController(site: site, client: client, failoverGrace: failoverGrace, report: { log.append($0) })
            prepare(controller)
            let task = Task { [self] in
                try? await controller.run()
                ended.withLock { $0 = true }
            }
            run.withLock { $0 = task }
            #expect(await log.wait { $0.contains { if case .ready = $0 { true } else { false } } }, "\(log.all)")
        }

        var hasEnded: Bool { ended.withLock { $0 } }

        /// Asks for the stop (a test's `defer`; again is harmless).
        func stop() {
            controller.requestStop()
            run.withLock { $0 }?.cancel()
        }
    }

    @Test func theControllerStopsWhileARadiosStateIsStillBeingRead() async throws {
        let fixture = try await SiteFixture(hosts: ["pi"], radios: Self.radios, beacons: AgentTests.beacons)
        let gate = Gate()
        defer { gate.open() }
        let readDone = Mutex(false)
        let running = try await RunningController(fixture) { controller in
            controller.readState.withLock { read in
                read = { payload in
                    gate.hold()
                    defer { readDone.withLock { $0 = true } }
                    return RadioStateReport(payload: payload)
                }
            }
        }
        defer { running.stop() }
        let (site, controller, log) = (running.site, running.controller, running.log)

        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        let loaded = site.beacons.map { BeaconState(id: SiteBeaconID.of($0), name: $0.name, state: .onAir, since: 1) }
        let host = try await fixture.watcher(SiteFixture.hostUser("pi"), subscribing: [])
        try await host.client.publish(topic: controller.topics.state(radio), payload: RadioStateReport(revision: 1, beacons: loaded).payload,
                                      qos: .atLeastOnce, retain: true)
        #expect(await Log<Int>.until { gate.hasBegun })
        controller.requestStop()
        // The run ends with the read still held: the stop did not wait for it.
        #expect(await Log<Int>.until { running.hasEnded }, "\(log.all)")
        #expect(gate.hasBegun)
        gate.open()
        // Once read, the state is dropped: no beacon was reported on air from it.
        #expect(await Log<Int>.until { readDone.withLock { $0 } })
        let onAir = log.all.contains { if case .beacon(_, _, true, _, _, _, _) = $0 { true } else { false } }
        #expect(!onAir, "\(log.all)")
    }

    @Test func theAgentStopsWhileADesiredFleetIsStillBeingReadAndAppliesNothingOfIt() async throws {
        let fixture = try await SiteFixture(hosts: ["pi"], radios: Self.radios, beacons: AgentTests.beacons)
        let site = try SiteLoader.load(contentsOf: fixture.siteFile)
        let topics = SiteTopics(site)
        let broker = try #require(site.broker)
        let configuration = try broker.clientConfiguration(clientID: "beacon-agent-lab-pi", will: SiteAgent.lastWill(topics: topics, host: "pi"),
                                                           environment: Self.environment(SiteFixture.hostUser("pi")))
        let radios = try SiteAgent.Radio.open(site.radios(of: "pi"), with: AdapterOpening(advertising: true))
        defer { for radio in radios { radio.connection.close() } }
        let log = Log<SiteAgent.Event>()
        let agent = SiteAgent(host: "pi", topics: topics, client: try MQTTClient(configuration), radios: radios, report: { log.append($0) })
        let gate = Gate()
        defer { gate.open() }
        agent.readDesired.withLock { read in
            read = { payload, topic in
                gate.hold()
                return DesiredFleet.read(payload, topic: topic)
            }
        }
        let outcomes = Mutex<[(radio: SiteRadio.ID, outcome: FleetOutcome)]?>(nil)
        let run = Task {
            let result = try? await agent.run()
            outcomes.withLock { $0 = result ?? [] }
        }
        defer { run.cancel() }
        let controller = try await fixture.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
        #expect(await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil } == true)

        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        try await controller.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: 1, beacons: site.beacons).payload,
                                            qos: .atLeastOnce, retain: true)
        #expect(await Log<Int>.until { gate.hasBegun })
        agent.requestStop()
        // The run ends (its teardown done) with the read still held, and the host says offline.
        #expect(await Log<Int>.until { outcomes.withLock { $0 != nil } }, "\(log.all)")
        #expect(gate.hasBegun)
        #expect(await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "offline" ? true : nil } == true)
        let teardown = try #require(outcomes.withLock { $0 })
        #expect(teardown.map(\.radio) == [radio])
        gate.open()
        // Once read, the fleet is dropped: nothing of it was applied or reported.
        let applied = log.all.contains { if case .applied = $0 { true } else { false } }
        #expect(!applied, "\(log.all)")
        #expect(controller.payload(topics.state(radio)).flatMap(RadioStateReport.init(payload:))?.revision != 1)
    }

    @Test func aStateLargerThanTheBoundIsDroppedUnreadAndSaid() async throws {
        let fixture = try await SiteFixture(hosts: ["pi"], radios: Self.radios, beacons: AgentTests.beacons)
        let reads = Mutex(0)
        let running = try await RunningController(fixture) { controller in
            controller.readState.withLock { read in
                read = { payload in
                    reads.withLock { $0 += 1 }
                    return RadioStateReport(payload: payload)
                }
            }
        }
        defer { running.stop() }
        let (controller, log) = (running.controller, running.log)
        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        let host = try await fixture.watcher(SiteFixture.hostUser("pi"), subscribing: [])
        // One byte over the bound (JSON of its own: spaces after a valid state).
        var big = RadioStateReport(revision: 1, beacons: []).payload
        big += [UInt8](repeating: 0x20, count: RadioStateReport.maximumPayloadSize + 1 - big.count)
        try await host.client.publish(topic: controller.topics.state(radio), payload: big, qos: .atLeastOnce, retain: true)
        let said = await log.wait { events in
            events.contains { if case .ignored(let topic, let reason) = $0 { topic == controller.topics.state(radio) && reason.contains("at most 16777216 bytes") } else { false } }
        }
        #expect(said, "\(log.all)")
        #expect(reads.withLock { $0 } == 0)
        // A state within the bound is read (the same radio, so the drop was the size).
        try await host.client.publish(topic: controller.topics.state(radio), payload: RadioStateReport(revision: 1, beacons: []).payload,
                                      qos: .atLeastOnce, retain: true)
        #expect(await Log<Int>.until { reads.withLock { $0 } == 1 })
    }

    @Test func aStateOfTenThousandBeaconsIsTakenInWhole() async throws {
        let count = 10_000
        let beacons = (0..<count).map { "  - {name: b\($0), uuid: \(AgentTests.uuid), major: \(1 + $0 / 1000), minor: \($0 % 1000), position: {x: 1, y: 0}}" }
        let fixture = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}, capacity: \(count)}",
                                            beacons: beacons.joined(separator: "\n"))
        let running = try await RunningController(fixture)
        defer { running.stop() }
        let (site, controller) = (running.site, running.controller)
        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        let host = try await fixture.watcher(SiteFixture.hostUser("pi"), subscribing: [])
        try await host.publish(controller.topics.hostStatus("pi"), "online")
        let states = site.beacons.map { BeaconState(id: SiteBeaconID.of($0), name: $0.name, state: .onAir, since: 1) }
        try await host.client.publish(topic: controller.topics.state(radio), payload: RadioStateReport(revision: 1, beacons: states).payload,
                                      qos: .atLeastOnce, retain: true)
        #expect(await Log<Int>.until { controller.beaconsOnAir.values.filter { $0 }.count == count },
                "\(controller.beaconsOnAir.values.filter { $0 }.count) of \(count) on air")
    }
    /// A burst of hosts coming online, each a placement: once the stop is asked for, what the
    /// broker still has queued is dropped unread. At most the message and placement in progress
    /// when the stop came is still said (its placement is cut short and nothing of it published),
    /// however many wait behind it.
    @Test func theControllerStopsWithABurstOfHostsComingOnlineStillQueued() async throws {
        let hosts = (0..<30).map { String(format: "h%02d", $0) }
        let radios = hosts.enumerated().flatMap { i, host in
            ["  - {host: \(host), adapter: virtual, position: {x: \(i * 20), y: 0}}",
             "  - {host: \(host), adapter: virtual-b, position: {x: \(i * 20 + 10), y: 0}}"]
        }
        let beacons = (0..<600).map { "  - {name: b\($0), uuid: \(AgentTests.uuid), major: 1, minor: \($0), position: {x: \($0), y: 0}}" }
        let fixture = try await SiteFixture(hosts: hosts, radios: radios.joined(separator: "\n"), beacons: beacons.joined(separator: "\n"))
        let topics = SiteTopics(try SiteLoader.load(contentsOf: fixture.siteFile))
        // Every host offline before the controller starts (a site coming back after a power cut).
        let hostsSide = try await fixture.watcher(SiteFixture.controller, subscribing: [])
        for host in hosts { try await hostsSide.publish(topics.hostStatus(host), SiteTopics.offline) }
        let running = try await RunningController(fixture)
        defer { running.stop() }
        let (controller, log) = (running.controller, running.log)

        func counts() -> (online: Int, placed: Int) {
            let all = log.all
            return (all.filter { if case .hostOnline = $0 { true } else { false } }.count,
                    all.filter { if case .placed = $0 { true } else { false } }.count)
        }
        let placedBefore = counts().placed
        for host in hosts { try await hostsSide.publish(topics.hostStatus(host), SiteTopics.online) }
        // Stopped as soon as the first host's placement is said, the rest still coming.
        #expect(await log.wait { _ in counts().placed > placedBefore })
        controller.requestStop()
        let atStop = counts()
        #expect(await Log<Int>.until { running.hasEnded }, "\(log.all.count) events")
        let after = counts()
        #expect(after.online - atStop.online <= 1 && after.placed - atStop.placed <= 1,
                "at the stop \(atStop), at the end \(after): the queue was worked through")
    }
}
