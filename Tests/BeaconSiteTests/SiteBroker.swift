// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
import Foundation
import Synchronization
import TestSupport

/// A site on a test's own Mosquitto: the users of docs/SITE.md's ACL (the controller, and one
/// user per host that reads only its own desired fleets and writes only its own topics), a site
/// file naming the broker, and a private virtual air.
struct SiteFixture {
    static let controller = MosquittoBroker.User(name: "site-controller", password: "controller-secret",
                                                  acl: ["topic readwrite beacon/#", "topic readwrite homeassistant/#"])

    static func hostUser(_ host: String, site: String = "lab") -> MosquittoBroker.User {
        MosquittoBroker.User(name: host, password: "\(host)-secret", acl: [
            "topic read beacon/\(site)/hosts/\(host)/+/desired",
            "topic write beacon/\(site)/hosts/\(host)/status",
            "topic write beacon/\(site)/hosts/\(host)/radios",
            "topic write beacon/\(site)/hosts/\(host)/telemetry",
            "topic write beacon/\(site)/hosts/\(host)/+/state",
        ])
    }

    let broker: MosquittoBroker
    let directory: URL
    let air: String
    var siteFile: String { directory.appendingPathComponent("site.yaml").path }

    /// A broker with the controller and `hosts` as users, and a site file (`radios` and `beacons`
    /// YAML lines) naming it. With `tls`, the broker speaks only TLS with the certificates' server
    /// certificate and wants a client certificate of their CA; `brokerKeys` are added to the site
    /// file's `broker:` mapping (`ca_file: …, cert_file: …`).
    init(hosts: [String], radios: String, beacons: String, extra: String = "", tls: TestCertificates? = nil, brokerKeys: String = "",
         persistentBroker: Bool = false) async throws {
        let listener = tls.map { c in
            ["cafile \(c.path("ca.crt"))", "certfile \(c.path("server.crt"))", "keyfile \(c.path("server.key"))", "require_certificate true"]
        } ?? []
        broker = try await MosquittoBroker(users: [Self.controller] + hosts.map { Self.hostUser($0) }, listenerOptions: listener, tls: tls != nil,
                                         persistent: persistentBroker)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-site-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let airURL = directory.appendingPathComponent("air")
        try FileManager.default.createDirectory(at: airURL, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        air = airURL.path
        let text = "name: lab\nbroker: {url: \"\(broker.url)\"\(brokerKeys.isEmpty ? "" : ", " + brokerKeys)}\nmax_distance: 50\n\(extra)radios:\n\(radios)\nbeacons:\n\(beacons)\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: siteFile))
    }

    /// `beacon arguments…` in the background on this site's air, as `user` (credentials in the
    /// environment, never on the command line).
    func start(_ arguments: [String], as user: MosquittoBroker.User? = nil) throws -> BackgroundProgram {
        var environment = ["BEACON_AIR=\(air)"]
        if let user { environment += ["BEACON_MQTT_USERNAME=\(user.name)", "BEACON_MQTT_PASSWORD=\(user.password)"] }
        return try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), environment + [try Executables.beacon.get().path] + arguments)
    }

    /// A client connected as `user` that keeps the last message of every topic it hears.
    func watcher(_ user: MosquittoBroker.User, subscribing filters: [String]) async throws -> TopicWatcher {
        let configuration = MQTTConfiguration(
            broker: try MQTTBrokerURL(parsing: broker.url), clientID: "test-\(user.name)-\(UUID().uuidString.prefix(6))",
            credentials: MQTTCredentials(username: user.name, password: user.password), keepaliveSeconds: 5,
            reconnectDelaySeconds: 1, reconnectDelayMaxSeconds: 2)
        let client = try MQTTClient(configuration)
        let watcher = TopicWatcher(client)
        try await client.connect()
        for filter in filters { try await client.subscribe(filter) }
        return watcher
    }
}

/// The last payload of each topic a client heard, and a wait for one that satisfies a test.
final class TopicWatcher: Sendable {
    let client: MQTTClient
    private final class Store: Sendable {
        let last = Mutex<[String: [UInt8]]>([:])
        /// How many messages each topic brought.
        let counts = Mutex<[String: Int]>([:])
        /// Every payload each topic brought, in order: a state that lasted a moment is still
        /// here when a test that the machine's load held back comes to look for it.
        let heard = Mutex<[String: [[UInt8]]]>([:])
    }
    private let store = Store()
    private let reader: Task<Void, Never>

    init(_ client: MQTTClient) {
        self.client = client
        let store = store
        reader = Task {
            for await event in client.events {
                if case .message(let m) = event {
                    store.counts.withLock { $0[m.topic, default: 0] += 1 }
                    store.heard.withLock { $0[m.topic, default: []].append(m.payload) }
                    store.last.withLock { $0[m.topic] = m.payload }
                }
            }
        }
    }

    deinit {
        reader.cancel()
        client.disconnect()
    }

    func payload(_ topic: String) -> [UInt8]? { store.last.withLock { $0[topic] } }

    /// Every payload `topic` brought so far, in order.
    func heard(_ topic: String) -> [[UInt8]] { store.heard.withLock { $0[topic] ?? [] } }

    /// How many messages `topic` brought so far (counted before the last payload is kept).
    func count(_ topic: String) -> Int { store.counts.withLock { $0[topic] ?? 0 } }

    /// Waits until the last payload on `topic` satisfies `condition`; `nil` if none did within
    /// `timeout` (a hang bound only).
    func wait<T>(on topic: String, timeout: Duration = .seconds(60), _ condition: ([UInt8]) -> T?) async -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let payload = payload(topic), let found = condition(payload) { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits until any payload `topic` brought so far satisfies `condition` (the first that
    /// does), however briefly it was the last; `nil` if none did within `timeout` (a hang bound
    /// only).
    func waitForAny<T>(on topic: String, timeout: Duration = .seconds(60), _ condition: ([UInt8]) -> T?) async -> T? {
        let deadline = ContinuousClock.now + timeout
        var seen = 0
        while ContinuousClock.now < deadline {
            let payloads = store.heard.withLock { Array(($0[topic] ?? []).dropFirst(seen)) }
            for payload in payloads {
                if let found = condition(payload) { return found }
            }
            seen += payloads.count
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    func publish(_ topic: String, _ text: String, retain: Bool = true) async throws {
        try await client.publish(topic: topic, payload: Array(text.utf8), qos: .atLeastOnce, retain: retain)
    }
}
