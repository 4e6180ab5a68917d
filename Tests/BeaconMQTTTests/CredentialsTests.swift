// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
import Foundation
import Testing

@Suite struct CredentialsTests {
    /// A credentials file with `text` and `mode` in a fresh temporary directory.
    func file(_ text: String, mode: Int) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("credentials").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func ownerOnlyFileLoads() throws {
        let path = try file("host1\nsecret:with:colons\n", mode: 0o600)
        #expect(try MQTTCredentials.load(fromFile: path) == MQTTCredentials(username: "host1", password: "secret:with:colons"))
    }

    @Test("a file others can read is refused, saying how to fix it")
    func readableFileRefused() throws {
        let path = try file("host1\nsecret\n", mode: 0o644)
        #expect(throws: MQTTError.credentials(path: path, line: nil,
                                              reason: "its mode 0644 lets group or others read or change the password; run chmod 600 \(path)")) {
            try MQTTCredentials.load(fromFile: path)
        }
    }

    @Test("CRLF line ends (a file saved on Windows) read as LF ones")
    func crlfLines() throws {
        let path = try file("host1\r\nsecret\r\n", mode: 0o600)
        #expect(try MQTTCredentials.load(fromFile: path) == MQTTCredentials(username: "host1", password: "secret"))
    }

    @Test("a file another user owns is refused, even at mode 0600 read as root (as ssh refuses such keys)",
          .enabled(if: geteuid() == 0, "giving a file to another user needs root"))
    func someoneElsesFileRefused() throws {
        let path = try file("host1\nsecret\n", mode: 0o600)
        let other: uid_t = 65534  // nobody
        try #require(chown(path, other, gid_t.max) == 0)
        #expect(throws: MQTTError.credentials(path: path, line: nil,
                                              reason: "it is owned by user \(other), not by this user (\(geteuid())); run chown \(geteuid()) \(path)")) {
            try MQTTCredentials.load(fromFile: path)
        }
    }

    @Test func missingPasswordNamesTheLine() throws {
        let path = try file("host1\n", mode: 0o600)
        #expect(throws: MQTTError.credentials(path: path, line: 2, reason: "the password is missing (line 1: user name, line 2: password)")) {
            try MQTTCredentials.load(fromFile: path)
        }
    }

    @Test func environment() throws {
        #expect(try MQTTCredentials.load(fromEnvironment: [:]) == nil)
        #expect(try MQTTCredentials.load(fromEnvironment: ["BEACON_MQTT_USERNAME": "u", "BEACON_MQTT_PASSWORD": "p"])
                == MQTTCredentials(username: "u", password: "p"))
        #expect(throws: MQTTError.self) { try MQTTCredentials.load(fromEnvironment: ["BEACON_MQTT_PASSWORD": "p"]) }
    }

    @Test func brokerURLs() throws {
        #expect(try MQTTBrokerURL(parsing: "mqtt://broker.local").description == "mqtt://broker.local:1883")
        #expect(try MQTTBrokerURL(parsing: "mqtts://10.0.0.1:9000").description == "mqtts://10.0.0.1:9000")
        #expect(try MQTTBrokerURL(parsing: "mqtt://[::1]:1884").description == "mqtt://[::1]:1884")
        #expect(throws: MQTTError.invalidURL("mqtt://user:pw@host", reason: "only HOST[:PORT] may follow the scheme (credentials come from a file or the environment)")) {
            try MQTTBrokerURL(parsing: "mqtt://user:pw@host")
        }
        #expect(throws: MQTTError.self) { try MQTTBrokerURL(parsing: "mqtt://host:70000") }
        #expect(throws: MQTTError.self) { try MQTTBrokerURL(parsing: "http://host") }
    }
}
