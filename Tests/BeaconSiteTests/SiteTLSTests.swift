// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// A site over TLS: a Mosquitto listener that speaks only TLS (certificates made by openssl for the
/// test), `beacon agent` and `beacon site` connecting with `mqtts://`, the CA file and a client
/// certificate from the site file (verification on); a beacon goes on air. With another CA in the
/// site file, both refuse the broker in one line and exit 1.
@Suite(.serialized) struct SiteTLSTests {
    static func clientKeys(_ certificates: TestCertificates, ca: String = "ca.crt") -> String {
        "ca_file: \"\(certificates.path(ca))\", cert_file: \"\(certificates.path("client.crt"))\", key_file: \"\(certificates.path("client.key"))\""
    }

    @Test func anAgentAndTheControllerOverMQTTSPutABeaconOnAir() async throws {
        let certificates = try TestCertificates()
        defer { try? FileManager.default.removeItem(at: certificates.directory) }
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}",
                                         beacons: AgentTests.beacons, tls: certificates, brokerKeys: Self.clientKeys(certificates))
        #expect(site.broker.url.hasPrefix("mqtts://"))
        let agent = try site.start(["agent", "--site", site.siteFile, "--host", "pi", "--json"], as: SiteFixture.hostUser("pi"))
        defer { agent.send(SIGKILL) }
        let controller = try site.start(["site", site.siteFile, "--json"], as: SiteFixture.controller)
        defer { controller.send(SIGKILL) }
        // The controller hears the agent's state: both beacons on air.
        let onAir = await controller.waitForOutput(timeout: .seconds(60)) { out in
            AgentTests.jsonLines(out).filter { $0["event"] as? String == "beacon" && $0["on_air"] as? Bool == true }.count == 2
        }
        #expect(onAir, "controller:\n\(controller.output)\nagent:\n\(agent.output)\nbroker:\n\(site.broker.log)")
        // And a scanner on the virtual air hears one from the radio's position, 1 m away.
        let scanner = try site.start(["scan", "-i", "virtual", "--json", "--at", "0,1"])
        defer { scanner.send(SIGKILL) }
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            AgentTests.jsonLines(out).contains { $0["event"] as? String == "report" && $0["minor"] as? Int == 1 && $0["rssi"] as? Int == -59 }
        }
        #expect(heard, "scanner:\n\(scanner.output)\nagent:\n\(agent.output)")
        agent.send(SIGTERM)
        #expect(await agent.waitForExit(timeout: .seconds(10)) == 0, "\(agent.output)")
    }

    @Test(arguments: ["agent", "site"])
    func aBrokerCertificateFromAnotherCAIsRefusedInOneLine(_ command: String) async throws {
        let certificates = try TestCertificates()
        defer { try? FileManager.default.removeItem(at: certificates.directory) }
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}",
                                         beacons: AgentTests.beacons, tls: certificates,
                                         brokerKeys: Self.clientKeys(certificates, ca: "other-ca.crt"))
        let arguments = command == "agent" ? ["agent", "--site", site.siteFile, "--host", "pi"] : ["site", site.siteFile]
        let program = try site.start(arguments, as: command == "agent" ? SiteFixture.hostUser("pi") : SiteFixture.controller)
        defer { program.send(SIGKILL) }
        #expect(await program.waitForExit(timeout: .seconds(60)) == 1, "\(program.output)")
        let lines = program.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(program.output)")
        #expect(lines.first?.hasPrefix("error: ") == true && lines.first?.contains("certificate verify failed") == true
                && lines.first?.contains(site.broker.url) == true, "\(program.output)")
    }
}
