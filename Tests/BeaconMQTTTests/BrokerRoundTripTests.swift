// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconMQTT
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The client against a real Mosquitto on loopback (see ``MosquittoBroker``).
@Suite(.serialized) struct BrokerRoundTripTests {
    static let versions: [MQTTProtocolVersion] = [.v311, .v5]

    @Test("QoS 1 round trip; a retained message reaches a late subscriber", arguments: versions)
    func roundTrip(version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker(users: TestUsers.all)
        let (publisher, _) = try await broker.connectedClient("publisher", as: TestUsers.site, version: version)
        let ack = try await publisher.publish(topic: "beacon/site/desired/r1", payload: Array("fleet-1".utf8), qos: .atLeastOnce, retain: true)
        #expect(ack.reasonCode == 0 || ack.reasonCode == 0x10, "PUBACK \(ack)")

        let (subscriber, log) = try await broker.connectedClient("subscriber", as: TestUsers.site, version: version)
        let granted = try await subscriber.subscribe("beacon/site/+/#", qos: .atLeastOnce)
        #expect(granted == 1)
        let retained = await log.message(on: "beacon/site/desired/r1")
        #expect(retained == MQTTMessage(topic: "beacon/site/desired/r1", payload: Array("fleet-1".utf8), qos: 1, retained: true),
                "\(log.all)\n\(broker.log)")

        try await publisher.publish(topic: "beacon/site/host1/state", payload: Array("on air".utf8), qos: .atLeastOnce)
        let live = await log.message(on: "beacon/site/host1/state")
        #expect(live == MQTTMessage(topic: "beacon/site/host1/state", payload: Array("on air".utf8), qos: 1, retained: false))
        #expect(log.all.first == .connected(code: 0, reason: MosquittoText.connack(0, version)))
        publisher.disconnect()
        subscriber.disconnect()
    }

    @Test("the Last Will is published when the connection drops without DISCONNECT", arguments: versions)
    func lastWill(version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker(users: TestUsers.all)
        let (observer, log) = try await broker.connectedClient("observer", as: TestUsers.site, version: version)
        try await observer.subscribe("beacon/site/host1/status")
        let will = MQTTWill(topic: "beacon/site/host1/status", payload: Array("offline".utf8), qos: .atLeastOnce, retain: true)
        let (agent, _) = try await broker.connectedClient("host1", as: TestUsers.host1, version: version, will: will)
        try await agent.publish(topic: "beacon/site/host1/status", payload: Array("online".utf8), retain: true)
        #expect(await log.message(on: "beacon/site/host1/status")?.payload == Array("online".utf8))

        // What a killed process leaves: the socket closes, no DISCONNECT was sent.
        let mark = log.mark
        let fd = agent.socketDescriptor
        try #require(fd >= 0)
        shutdown(fd, Int32(SHUT_RDWR))
        let gone = await log.message(on: "beacon/site/host1/status", after: mark)
        #expect(gone?.payload == Array("offline".utf8), "\(log.all)\n\(broker.log)")
        agent.disconnect()
        observer.disconnect()
    }

    @Test("a wrong password is one line with the broker's answer", arguments: versions)
    func wrongPassword(version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker(users: TestUsers.all)
        let client = try MQTTClient(broker.configuration(clientID: "intruder", user: TestUsers.host1, password: "guess", version: version))
        let error = await #expect(throws: MQTTError.self) { try await client.connect() }
        guard case .refused(_, let code, let reason)? = error else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        // The broker's words: Mosquitto 2.0 answers CONNACK 5 under 3.1.1 and reason code 0x87
        // (not 0x86, "bad user name or password") under 5.
        #expect(code == (version == .v5 ? 0x87 : 5))
        #expect(reason == (version == .v5 ? "Not authorized" : "Connection Refused: not authorised."))
        let text = String(describing: error!)
        #expect(!text.contains("\n") && text.contains(broker.url) && text.contains(reason), "\(text)")
        #expect(!client.isConnected)
    }

    @Test("nothing listening: the reason in words")
    func unreachable() async throws {
        let port = try LoopbackListener().port  // closed again at once: nothing listens there
        let client = try MQTTClient(MQTTConfiguration(broker: try MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(port)"), clientID: "lonely"))
        let error = await #expect(throws: MQTTError.self) { try await client.connect() }
        #expect(error.map(String.init(describing:)) == "cannot reach the MQTT broker mqtt://127.0.0.1:\(port): Connection refused")
    }

    @Test("ACL: a publish this user may not make never reaches subscribers", arguments: versions)
    func publishDenied(version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker(users: TestUsers.all)
        let (observer, log) = try await broker.connectedClient("observer", as: TestUsers.site, version: version)
        try await observer.subscribe("beacon/#")
        let (host1, _) = try await broker.connectedClient("host1", as: TestUsers.host1, version: version)

        // host1 tries to change another host's fleet, then writes its own state.
        if version == .v5 {
            // MQTT 5 acknowledges the refusal with its reason.
            let error = await #expect(throws: MQTTError.self) {
                try await host1.publish(topic: "beacon/site/desired/host2", payload: Array("rogue".utf8), qos: .atLeastOnce)
            }
            #expect(error == .publishRefused(topic: "beacon/site/desired/host2", code: 0x87, reason: "Not authorized"))
        } else {
            // MQTT 3.1.1 has no way to say no: the broker acknowledges and drops it.
            let ack = try await host1.publish(topic: "beacon/site/desired/host2", payload: Array("rogue".utf8), qos: .atLeastOnce)
            #expect(ack.reasonCode == 0)
        }
        try await host1.publish(topic: "beacon/site/host1/state", payload: Array("ok".utf8), qos: .atLeastOnce)
        // The broker handles one client's messages in order: once the later, allowed one is
        // delivered, the refused one would have been delivered before it.
        #expect(await log.message(on: "beacon/site/host1/state") != nil, "\(log.all)\n\(broker.log)")
        #expect(!log.messages.contains { $0.topic == "beacon/site/desired/host2" }, "\(log.messages)")
        #expect(broker.log.contains("Denied PUBLISH from host1"), "\(broker.log)")
        host1.disconnect()
        observer.disconnect()
    }

    @Test("ACL: a topic this user may not read is never delivered to it", arguments: versions)
    func readDenied(version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker(users: TestUsers.all)
        let (host1, log) = try await broker.connectedClient("host1", as: TestUsers.host1, version: version)
        // Mosquitto 2.0 grants the subscription and checks read access on each message.
        try await host1.subscribe("beacon/site/#")
        let (controller, _) = try await broker.connectedClient("controller", as: TestUsers.site, version: version)
        try await controller.publish(topic: "beacon/site/desired/host2", payload: Array("not for host1".utf8), qos: .atLeastOnce)
        try await controller.publish(topic: "beacon/site/desired/host1", payload: Array("fleet".utf8), qos: .atLeastOnce)
        // One client's messages go out in order: the second delivered means the first was not.
        #expect(await log.message(on: "beacon/site/desired/host1") != nil, "\(log.all)\n\(broker.log)")
        #expect(log.messages.map(\.topic) == ["beacon/site/desired/host1"])
        controller.disconnect()
        host1.disconnect()
    }

    enum BrokerEnd: CaseIterable, Sendable { case sigterm, sigkill }

    @Test("after a broker restart the client reconnects, renews its subscription and receives again",
          arguments: versions, BrokerEnd.allCases)
    func brokerRestart(version: MQTTProtocolVersion, end: BrokerEnd) async throws {
        let broker = try await MosquittoBroker(users: TestUsers.all)
        let (subscriber, log) = try await broker.connectedClient("agent", as: TestUsers.host1, version: version)
        try await subscriber.subscribe("beacon/site/desired/#")

        var mark = log.mark
        switch end {
        case .sigterm: try await broker.stop()
        case .sigkill: try await broker.kill()
        }
        let lost = await log.next(after: mark) { if case .disconnected = $0 { true } else { false } }
        #expect(lost != nil, "\(log.all)")
        #expect(!subscriber.isConnected)

        mark = log.mark
        try await broker.start()
        let renewed = await log.next(after: mark) { $0 == .subscribed(filter: "beacon/site/desired/#", grantedQoS: 1) }
        #expect(renewed != nil, "\(log.all)\n\(broker.log)")
        #expect(log.all.dropFirst(mark).contains { if case .connected(0, _) = $0 { true } else { false } })

        let (controller, _) = try await broker.connectedClient("controller", as: TestUsers.site, version: version)
        try await controller.publish(topic: "beacon/site/desired/host1", payload: Array("fleet-2".utf8))
        #expect(await log.message(on: "beacon/site/desired/host1", after: mark)?.payload == Array("fleet-2".utf8), "\(log.all)")
        controller.disconnect()
        subscriber.disconnect()
    }

    @Test("disconnect() while the client waits to reconnect returns within a second")
    func disconnectDuringBackoff() async throws {
        let broker = try await MosquittoBroker(users: TestUsers.all)
        var configuration = try broker.configuration(clientID: "agent", user: TestUsers.host1, version: .v5)
        configuration.reconnectDelaySeconds = 30
        configuration.reconnectDelayMaxSeconds = 60
        let client = try MQTTClient(configuration)
        let log = EventLog(client)
        try await client.connect()
        try await broker.kill()
        #expect(await log.next { if case .disconnected = $0 { true } else { false } } != nil)
        let started = ContinuousClock.now
        client.disconnect()
        #expect(ContinuousClock.now - started < .seconds(1))
    }
}
