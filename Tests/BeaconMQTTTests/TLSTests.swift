// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct TLSTests {
    /// A broker that speaks only TLS and wants a client certificate signed by the test CA.
    func tlsBroker(_ certificates: TestCertificates) async throws -> MosquittoBroker {
        try await MosquittoBroker(users: TestUsers.all, listenerOptions: [
            "cafile \(certificates.path("ca.crt"))",
            "certfile \(certificates.path("server.crt"))",
            "keyfile \(certificates.path("server.key"))",
            "require_certificate true",
        ], tls: true)
    }

    func configuration(_ broker: MosquittoBroker, caFile: String, certificates: TestCertificates) throws -> MQTTConfiguration {
        var configuration = try broker.configuration(clientID: "host1", user: TestUsers.host1, version: .v5)
        configuration.tls = MQTTTLSSettings(caFile: caFile, certificateFile: certificates.path("client.crt"), keyFile: certificates.path("client.key"))
        return configuration
    }

    @Test("mqtts:// with the broker's CA and a client certificate: messages go both ways")
    func verifiedRoundTrip() async throws {
        let certificates = try TestCertificates()
        let broker = try await tlsBroker(certificates)
        let client = try MQTTClient(configuration(broker, caFile: certificates.path("ca.crt"), certificates: certificates))
        let log = EventLog(client)
        try await client.connect()
        try await client.subscribe("beacon/site/desired/host1")
        var controllerConfiguration = try broker.configuration(clientID: "controller", user: TestUsers.site, version: .v311)
        controllerConfiguration.tls = MQTTTLSSettings(caFile: certificates.path("ca.crt"), certificateFile: certificates.path("client.crt"),
                                                      keyFile: certificates.path("client.key"))
        let controller = try MQTTClient(controllerConfiguration)
        try await controller.connect()
        try await controller.publish(topic: "beacon/site/desired/host1", payload: Array("fleet".utf8))
        #expect(await log.message(on: "beacon/site/desired/host1")?.payload == Array("fleet".utf8), "\(log.all)\n\(broker.log)")
        controller.disconnect()
        client.disconnect()
    }

    @Test("a broker certificate from another CA is refused: verification is on")
    func wrongCARefused() async throws {
        let certificates = try TestCertificates()
        let broker = try await tlsBroker(certificates)
        let client = try MQTTClient(configuration(broker, caFile: certificates.path("other-ca.crt"), certificates: certificates))
        let error = await #expect(throws: MQTTError.self) { try await client.connect() }
        let text = error.map(String.init(describing:)) ?? ""
        // OpenSSL's reason, through libmosquitto's log, on the one line.
        #expect(text.contains(broker.url) && text.contains("certificate verify failed") && !text.contains("\n"), "\(text)")
        #expect(!client.isConnected)
    }
}
