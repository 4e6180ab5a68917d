// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconMQTT
import TestSupport

/// The users every test broker knows: `site` may read and write the whole `beacon/` tree;
/// `host1` may read only its own desired fleet and write only its own state, `beacon/site/host1/#`.
enum TestUsers {
    static let site = MosquittoBroker.User(name: "site", password: "site-secret", acl: ["topic readwrite beacon/#"])
    static let host1 = MosquittoBroker.User(name: "host1", password: "host1-secret",
                                             acl: ["topic read beacon/site/desired/host1", "topic write beacon/site/host1/#"])
    static let all = [site, host1]
}

extension MosquittoBroker {
    /// A client configuration for this broker as `user`.
    func configuration(clientID: String, user: User?, password: String? = nil, version: MQTTProtocolVersion,
                       will: MQTTWill? = nil) throws -> MQTTConfiguration {
        MQTTConfiguration(
            broker: try MQTTBrokerURL(parsing: url), clientID: clientID, protocolVersion: version,
            credentials: user.map { MQTTCredentials(username: $0.name, password: password ?? $0.password) },
            will: will, keepaliveSeconds: 5, reconnectDelaySeconds: 1, reconnectDelayMaxSeconds: 2)
    }

    /// A connected client as `user`, with its event log.
    func connectedClient(_ clientID: String, as user: User, version: MQTTProtocolVersion, will: MQTTWill? = nil) async throws -> (MQTTClient, EventLog) {
        let client = try MQTTClient(configuration(clientID: clientID, user: user, version: version, will: will))
        let log = EventLog(client)
        try await client.connect()
        return (client, log)
    }
}
