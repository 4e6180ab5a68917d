// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconProfiles
import Foundation
import Testing
import TestSupport
@testable import BeaconSite

/// `beacon agent` on a real Mosquitto with virtual radios: a desired fleet goes on air and is
/// heard on the virtual air; a malformed one is refused in the state topic; the same payload twice
/// changes nothing; the broker restarted, the beacons stay on air and the state comes back.
@Suite(.serialized) struct AgentTests {
    static let uuid = "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061"
    static let beacons = """
          - {name: door, uuid: \(uuid), major: 7, minor: 1, position: {x: 1, y: 0}}
          - {name: desk, uuid: \(uuid), major: 7, minor: 2, position: {x: 2, y: 0}}
        """

    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func state(_ payload: [UInt8]) -> RadioStateReport? { RadioStateReport(payload: payload) }

    /// Host `pi` with one virtual radio, its agent running (`--json`; the caller kills it), and a
    /// client as the controller watching the host's topics.
    static func startAgent() async throws -> (SiteFixture, BackgroundProgram, TopicWatcher) {
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}", beacons: beacons)
        let agent = try site.start(["agent", "--site", site.siteFile, "--host", "pi", "--json"], as: SiteFixture.hostUser("pi"))
        do {
            return (site, agent, try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"]))
        } catch {
            agent.send(SIGKILL)
            throw error
        }
    }

    @Test func aDesiredFleetGoesOnAirIsHeardAndTheSamePayloadTwiceChangesNothing() async throws {
        let (site, agent, controller) = try await Self.startAgent()
        defer { agent.send(SIGKILL) }
        let (topics, radio) = (SiteTopics(site: "lab"), SiteRadio.ID(host: "pi", adapter: "virtual"))
        let online = await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil }
        #expect(online == true, "\(agent.output)")
        #expect(await controller.wait(on: topics.hostRadios("pi")) { String(decoding: $0, as: UTF8.self).contains("\"adapter\":\"virtual\"") ? true : nil } == true)

        let loaded = try SiteLoader.load(contentsOf: site.siteFile)
        let desired = DesiredFleet(revision: 1, beacons: [loaded.beacons[0]])
        try await controller.client.publish(topic: topics.desired(radio), payload: desired.payload, qos: .atLeastOnce, retain: true)
        let onAir = await controller.wait(on: topics.state(radio)) { p in Self.state(p).flatMap { $0.revision == 1 ? $0 : nil } }
        let report = try #require(onAir, "\(agent.output)")
        #expect(report.beacons.map(\.state) == [.onAir])
        #expect(report.beacons.map(\.id) == [SiteBeaconID.of(loaded.beacons[0])])
        // The set the agent's plan put it on (the virtual controller's extended sets).
        let seat = try #require(report.beacons[0].seat, "\(agent.output)")
        #expect(seat.mode == .extendedSets && seat.slots == 1, "\(seat)")

        // A scanner on the virtual air hears it.
        let scanner = try site.start(["scan", "-i", "virtual", "--json", "--at", "0,1"])
        defer { scanner.send(SIGKILL) }
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            Self.jsonLines(out).contains { $0["event"] as? String == "report" && $0["minor"] as? Int == 1 && $0["major"] as? Int == 7 }
        }
        #expect(heard, "scanner:\n\(scanner.output)\nagent:\n\(agent.output)")
        // Heard from the radio's position (0,0), 1 m from the scanner: the measured power, −59;
        // from the beacon's own (1,0) it would be √2 m away, −62.
        let rssi = Self.jsonLines(scanner.stdout).first { $0["event"] as? String == "report" && $0["minor"] as? Int == 1 }?["rssi"] as? Int
        #expect(rssi == -59, "\(scanner.output)")
        scanner.send(SIGINT)
        _ = await scanner.waitForExit(timeout: .seconds(60))

        // The same payload again (as QoS 1 may deliver it): nothing sent to the radio.
        try await controller.client.publish(topic: topics.desired(radio), payload: desired.payload, qos: .atLeastOnce, retain: true)
        let unchanged = await agent.waitForOutput(timeout: .seconds(60)) { out in Self.jsonLines(out).contains { $0["event"] as? String == "unchanged" } }
        #expect(unchanged, "\(agent.output)")
        #expect(report.beacons[0].since == Self.state(controller.payload(topics.state(radio))!)?.beacons.first?.since)

        // Both beacons: the first stays on air since the same time, the second joins.
        let both = DesiredFleet(revision: 2, beacons: Array(loaded.beacons))
        try await controller.client.publish(topic: topics.desired(radio), payload: both.payload, qos: .atLeastOnce, retain: true)
        let second = await controller.wait(on: topics.state(radio)) { p in Self.state(p).flatMap { $0.revision == 2 ? $0 : nil } }
        #expect(second?.beacons.map(\.state) == [.onAir, .onAir])
        #expect(second?.beacons.first?.since == report.beacons[0].since)
        // It keeps its set; the second gets another.
        #expect(second?.beacons.first?.seat == seat)
        #expect(second?.beacons.last?.seat.map { $0.advertiser != seat.advertiser } == true, "\(String(describing: second))")

        agent.send(SIGTERM)
        #expect(await agent.waitForExit(timeout: .seconds(10)) == 0, "\(agent.output)")
        let offline = await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "offline" ? true : nil }
        #expect(offline == true)
        #expect(await controller.wait(on: topics.state(radio)) { p in Self.state(p)?.beacons.allSatisfy { $0.state == .off && $0.seat == nil } == true ? true : nil } == true)
    }

    /// The same desired fleet again, under its revision (a QoS 1 duplicate, or the controller
    /// republishing everything after a reconnection) touches neither the radio nor the retained
    /// state; under a new revision, only the state says so.
    @Test func theSameDesiredFleetAgainPublishesNoStateUnlessItsRevisionIsNew() async throws {
        let (site, agent, controller) = try await Self.startAgent()
        defer { agent.send(SIGKILL) }
        let (topics, radio) = (SiteTopics(site: "lab"), SiteRadio.ID(host: "pi", adapter: "virtual"))
        #expect(await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil } == true, "\(agent.output)")
        let beacons = try SiteLoader.load(contentsOf: site.siteFile).beacons
        let first = DesiredFleet(revision: 1, beacons: beacons)
        try await controller.client.publish(topic: topics.desired(radio), payload: first.payload, qos: .atLeastOnce, retain: true)
        #expect(await controller.wait(on: topics.state(radio)) { p in Self.state(p)?.revision == 1 ? true : nil } == true, "\(agent.output)")
        let states = controller.count(topics.state(radio))

        // Twice the same, then the same beacons under revision 2. The agent publishes in order and
        // the broker delivers in order: once revision 2's state is here, any state the duplicates
        // caused has been counted.
        for _ in 0..<2 { try await controller.client.publish(topic: topics.desired(radio), payload: first.payload, qos: .atLeastOnce, retain: true) }
        try await controller.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: 2, beacons: beacons).payload,
                                            qos: .atLeastOnce, retain: true)
        let second = await controller.wait(on: topics.state(radio)) { p in Self.state(p).flatMap { $0.revision == 2 ? $0 : nil } }
        #expect(second?.beacons.map(\.state) == [.onAir, .onAir], "\(agent.output)")
        #expect(controller.count(topics.state(radio)) == states + 1, "\(agent.output)")
        // Written before that state was published; read here once it has come through the pipe.
        #expect(await agent.waitForOutput(timeout: .seconds(60)) { out in
            Self.jsonLines(out).contains { $0["event"] as? String == "unchanged" && $0["revision"] as? Int == 2 }
        }, "\(agent.output)")
        let events = Self.jsonLines(agent.stdout).compactMap { e in (e["event"] as? String).map { ($0, e["revision"] as? Int) } }
            .filter { ["applied", "unchanged"].contains($0.0) }
        // Desired fleets the agent has not read yet give way to a newer one (only the newest
        // retained payload matters): the duplicates are read twice, once or not at all, by how
        // busy the machine is, and never applied.
        let words = events.map { "\($0.0) \($0.1 ?? -1)" }
        #expect(words.first == "applied 1" && words.last == "unchanged 2", "\(agent.output)")
        #expect((2...4).contains(words.count), "\(agent.output)")
        #expect(words.dropFirst().dropLast().allSatisfy { $0 == "unchanged 1" }, "\(agent.output)")
    }

    /// Without a site file: `--broker`, `--site-name`, `-i` and `--credentials` (a file, mode
    /// 0600) stand for it. The telemetry carries the agent's resident set size.
    @Test func theBrokerFlagsStandForTheSiteFile() async throws {
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}", beacons: Self.beacons)
        let topics = SiteTopics(site: "lab")
        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        // Subscribed before the agent starts: its first telemetry goes out as it connects.
        let controller = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
        let credentials = site.directory.appendingPathComponent("pi.credentials").path
        #expect(FileManager.default.createFile(atPath: credentials, contents: Data("pi\npi-secret\n".utf8), attributes: [.posixPermissions: 0o600]))
        let agent = try site.start(["agent", "--broker", site.broker.url, "--site-name", "lab", "--host", "pi", "-i", "virtual",
                                    "--credentials", credentials, "--json"])
        defer { agent.send(SIGKILL) }
        let online = await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil }
        #expect(online == true, "\(agent.output)")
        let rss = await controller.wait(on: topics.hostTelemetry("pi")) { payload in
            (try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])?["rss_bytes"] as? Int
        }
        // A Swift process with its radios open holds a few MiB at least.
        #expect((rss ?? 0) > 1 << 20, "telemetry: \(controller.payload(topics.hostTelemetry("pi")).map { String(decoding: $0, as: UTF8.self) } ?? "none")")

        let loaded = try SiteLoader.load(contentsOf: site.siteFile)
        let desired = DesiredFleet(revision: 1, beacons: [loaded.beacons[0]])
        try await controller.client.publish(topic: topics.desired(radio), payload: desired.payload, qos: .atLeastOnce, retain: true)
        let onAir = await controller.wait(on: topics.state(radio)) { p in Self.state(p).flatMap { $0.revision == 1 ? $0 : nil } }
        #expect(onAir?.beacons.map(\.state) == [.onAir], "\(agent.output)")
        agent.send(SIGTERM)
        #expect(await agent.waitForExit(timeout: .seconds(10)) == 0, "\(agent.output)")
    }

    @Test func aMalformedDesiredPayloadIsRefusedInTheStateTopicAndWhatIsOnAirStays() async throws {
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}", beacons: Self.beacons)
        let agent = try site.start(["agent", "--site", site.siteFile, "--host", "pi"], as: SiteFixture.hostUser("pi"))
        defer { agent.send(SIGKILL) }
        let topics = SiteTopics(site: "lab")
        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        let controller = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
        let loaded = try SiteLoader.load(contentsOf: site.siteFile)
        try await controller.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: 1, beacons: [loaded.beacons[0]]).payload,
                                            qos: .atLeastOnce, retain: true)
        #expect(await controller.wait(on: topics.state(radio)) { p in Self.state(p)?.revision == 1 ? true : nil } == true, "\(agent.output)")
        try await controller.publish(topics.desired(radio), #"{"revision": 2, "beacons": [{"uuid": "\#(Self.uuid)", "major": 70000, "minor": 1}]}"#)
        let refused = await controller.wait(on: topics.state(radio)) { p in Self.state(p)?.rejected }
        let rejection = try #require(refused, "\(agent.output)")
        #expect(rejection.field == "major")
        #expect(rejection.reason == "must be an integer from 0 to 65535")
        let after = try #require(Self.state(controller.payload(topics.state(radio))!))
        #expect(after.revision == 1)
        #expect(after.beacons.map(\.state) == [.onAir])
    }

    @Test func theBrokerRestartedTheBeaconsStayOnAirAndTheStateComesBack() async throws {
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}", beacons: Self.beacons)
        let agent = try site.start(["agent", "--site", site.siteFile, "--host", "pi", "--json"], as: SiteFixture.hostUser("pi"))
        defer { agent.send(SIGKILL) }
        let topics = SiteTopics(site: "lab")
        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        let loaded = try SiteLoader.load(contentsOf: site.siteFile)
        do {
            let controller = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
            try await controller.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: 1, beacons: loaded.beacons).payload,
                                                qos: .atLeastOnce, retain: true)
            #expect(await controller.wait(on: topics.state(radio)) { p in Self.state(p)?.revision == 1 ? true : nil } == true, "\(agent.output)")
        }
        let scanner = try site.start(["scan", "-i", "virtual", "--json", "--at", "0,1"])
        defer { scanner.send(SIGKILL) }
        #expect(await scanner.waitForOutput(timeout: .seconds(60)) { Self.jsonLines($0).contains { $0["minor"] as? Int == 2 } })

        // The broker goes away (its retained messages with it: no persistence) and comes back.
        try await site.broker.kill()
        #expect(await agent.waitForOutput(timeout: .seconds(60)) { out in Self.jsonLines(out).contains { $0["event"] as? String == "disconnected" } }, "\(agent.output)")
        // Still on air while the broker is away: reports keep coming after the loss.
        let mark = Self.jsonLines(scanner.stdout).count
        #expect(await scanner.waitForOutput(timeout: .seconds(60)) { Self.jsonLines($0).dropFirst(mark).contains { $0["minor"] as? Int == 1 } })
        try await site.broker.start()
        let controller = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
        // The agent says again who it is and what is on air: revision 1, both beacons.
        let back = await controller.wait(on: topics.state(radio), timeout: .seconds(60)) { p in Self.state(p).flatMap { $0.revision == 1 ? $0 : nil } }
        #expect(back?.beacons.map(\.state) == [.onAir, .onAir], "\(agent.output)")
        #expect(await controller.wait(on: topics.hostStatus("pi")) { String(decoding: $0, as: UTF8.self) == "online" ? true : nil } == true)
    }

    @Test func wrongCredentialsEndTheAgentWithTheBrokersAnswer() async throws {
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}", beacons: Self.beacons)
        var user = SiteFixture.hostUser("pi")
        user.password = "wrong"
        let agent = try site.start(["agent", "--site", site.siteFile, "--host", "pi"], as: user)
        defer { agent.send(SIGKILL) }
        #expect(await agent.waitForExit(timeout: .seconds(60)) == 1, "\(agent.output)")
        let lines = agent.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(agent.output)")
        #expect(lines.first?.hasPrefix("error: ") == true && lines.first?.lowercased().contains("not authori") == true, "\(agent.output)")
    }

    @Test func anotherHostsCredentialsCannotChangeThisHostsBeacons() async throws {
        let site = try await SiteFixture(hosts: ["pi", "rogue"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}", beacons: Self.beacons)
        let agent = try site.start(["agent", "--site", site.siteFile, "--host", "pi", "--json"], as: SiteFixture.hostUser("pi"))
        defer { agent.send(SIGKILL) }
        let topics = SiteTopics(site: "lab")
        let radio = SiteRadio.ID(host: "pi", adapter: "virtual")
        let loaded = try SiteLoader.load(contentsOf: site.siteFile)
        let controller = try await site.watcher(SiteFixture.controller, subscribing: ["beacon/lab/hosts/#"])
        try await controller.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: 1, beacons: [loaded.beacons[0]]).payload,
                                            qos: .atLeastOnce, retain: true)
        #expect(await controller.wait(on: topics.state(radio)) { p in Self.state(p)?.revision == 1 ? true : nil } == true, "\(agent.output)")
        // The rogue holds another host's credentials: the broker refuses its desired fleet for pi
        // (MQTT 5 says so), and nothing reaches pi.
        let rogue = try await site.watcher(SiteFixture.hostUser("rogue"), subscribing: [])
        var refused = false
        do {
            try await rogue.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: 9, beacons: []).payload, qos: .atLeastOnce, retain: true)
        } catch {
            refused = true
        }
        #expect(refused)
        // Its state-topic forgery is refused too; the controller's next fleet is what pi applies.
        do { try await rogue.publish(topics.state(radio), #"{"revision":9,"beacons":[]}"#) } catch {}
        try await controller.client.publish(topic: topics.desired(radio), payload: DesiredFleet(revision: 2, beacons: loaded.beacons).payload,
                                            qos: .atLeastOnce, retain: true)
        let applied = await agent.waitForOutput(timeout: .seconds(60)) { out in Self.jsonLines(out).contains { $0["event"] as? String == "applied" && $0["revision"] as? Int == 2 } }
        #expect(applied, "\(agent.output)")
        let revisions = Self.jsonLines(agent.stdout).filter { ["applied", "unchanged", "rejected"].contains($0["event"] as? String ?? "") }.compactMap { $0["revision"] as? Int }
        #expect(revisions == [1, 2], "\(agent.output)")
        #expect(await controller.wait(on: topics.state(radio)) { p in Self.state(p)?.revision == 2 ? true : nil } == true)
    }

    @Test func aStopWhileTheBrokerDoesNotAnswerIsHonouredWithinASecond() async throws {
        // A broker that takes the connection and never answers it.
        let silent = try LoopbackListener()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-silent-\(UUID().uuidString.prefix(8))")
        let air = directory.appendingPathComponent("air")
        try FileManager.default.createDirectory(at: air, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let siteFile = directory.appendingPathComponent("site.yaml").path
        try Data("name: lab\nbroker: {url: \"mqtt://127.0.0.1:\(silent.port)\"}\nradios:\n  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}\nbeacons:\n\(Self.beacons)\n".utf8)
            .write(to: URL(fileURLWithPath: siteFile))
        let agent = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air.path)", "BEACON_MQTT_USERNAME=pi", "BEACON_MQTT_PASSWORD=x",
                                                                                try Executables.beacon.get().path, "agent", "--site", siteFile, "--host", "pi"])
        defer { agent.send(SIGKILL) }
        let connection = silent.accept()
        defer { close(connection) }
        agent.send(SIGTERM)
        let start = ContinuousClock.now
        let status = await agent.waitForExit(timeout: .seconds(10))
        #expect(status == 0, "\(agent.output)")
        #expect(ContinuousClock.now - start < .seconds(1), "\(agent.output)")
    }
}
