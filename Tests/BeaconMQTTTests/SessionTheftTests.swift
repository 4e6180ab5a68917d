// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconMQTT
import Foundation
import Testing
import TestSupport

/// #35 item 3: a client id is a session, and MQTT brokers close the older of two connections with
/// one id. With contrib/mosquitto/beacon.conf's `use_username_as_clientid`, east's credentials
/// cannot take west's session or the controller's, whatever id they ask for; without it they can
/// (the same test, on a broker without the line, sees the theft, so it can fail).
@Suite(.serialized) struct SessionTheftTests {
    static let controller = MosquittoBroker.User(name: "site-controller", password: "c-secret", acl: ["topic readwrite beacon/#"])
    static let west = MosquittoBroker.User(name: "pi-west", password: "w-secret", acl: ["topic write beacon/lab/hosts/pi-west/#"])
    static let east = MosquittoBroker.User(name: "pi-east", password: "e-secret", acl: ["topic write beacon/lab/hosts/pi-east/#"])

    /// The shipped configuration's line that ties ids to users.
    static func shippedOptions() throws -> [String] {
        let text = try String(contentsOfFile: PackageRoot.path("contrib/mosquitto/beacon.conf"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("use_username_as_clientid") }
    }

    @Test(arguments: [true, false])
    func oneHostsCredentialsCannotTakeAnotherClientsSession(shipped: Bool) async throws {
        let options = try Self.shippedOptions()
        if shipped { #expect(options == ["use_username_as_clientid true"]) }
        // A listener's setting (after the listener line), as the shipped file has it.
        let broker = try await MosquittoBroker(users: [Self.controller, Self.west, Self.east], listenerOptions: shipped ? options : [])
        let (westClient, westLog) = try await broker.connectedClient("beacon-agent-lab-pi-west", as: Self.west, version: .v5)
        let (controllerClient, controllerLog) = try await broker.connectedClient("beacon-site-lab", as: Self.controller, version: .v5)
        defer { westClient.disconnect(); controllerClient.disconnect() }
        // East, with its own credentials, asks for west's id and then the controller's.
        for stolen in ["beacon-agent-lab-pi-west", "beacon-site-lab"] {
            let (attacker, attackerLog) = try await broker.connectedClient(stolen, as: Self.east, version: .v5)
            #expect(await attackerLog.next { if case .connected(0, _) = $0 { true } else { false } } != nil, "\(attackerLog.all)")
            attacker.disconnect()
        }
        // The broker closes the older connection while it takes the new one's CONNECT, before
        // its CONNACK: by now a theft has happened or never will. A victim's own round trip on
        // the connection it made shows it still has it.
        for (client, log, topic) in [(westClient, westLog, "beacon/lab/hosts/pi-west/status"), (controllerClient, controllerLog, "beacon/lab/x")] {
            let isDisconnect: (MQTTEvent) -> Bool = { if case .disconnected = $0 { true } else { false } }
            if shipped {
                let ack = try await client.publish(topic: topic, payload: Array("here".utf8), qos: .atLeastOnce)
                #expect(ack.reasonCode < 0x80 && !log.all.contains(where: isDisconnect), "\(topic): \(log.all)\n\(broker.log)")
            } else {
                #expect(await log.next(where: isDisconnect) != nil, "without the line the theft happens: \(broker.log)")
            }
        }
        #expect(broker.log.contains("already connected, closing old connection") == !shipped, "\(broker.log)")
        #expect(!broker.log.contains("port 1883"), "no listener but the test's own: \(broker.log)")
    }
}
