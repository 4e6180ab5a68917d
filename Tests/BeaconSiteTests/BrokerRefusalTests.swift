// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
@testable import BeaconSite
import Foundation
import Testing
import TestSupport

/// #35 item 9: what the broker refuses is said. An agent run with another host's credentials
/// has every publish refused (MQTT 5 PUBACK 135, Not authorized): it says so for its own status,
/// takes its beacons off air and exits 1. A controller whose discovery prefix the ACL forbids
/// says so once per kind of topic, not once per beacon. Real Mosquitto, docs/SITE.md's ACL.
@Suite(.serialized) struct BrokerRefusalTests {
    @Test func anAgentWhoseStatusIsRefusedSaysSoAndExits1() async throws {
        let site = try await SiteFixture(hosts: ["pi", "other"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}",
                                         beacons: AgentTests.beacons)
        let agent = try site.start(["agent", "--site", site.siteFile, "--host", "pi", "--json"], as: SiteFixture.hostUser("other"))
        defer { agent.send(SIGKILL) }
        #expect(await agent.waitForExit(timeout: .seconds(60)) == 1, "\(agent.output)")
        let refused = AgentTests.jsonLines(agent.stdout).filter { $0["event"] as? String == "publish_refused" }
        #expect(refused.count == 1, "\(agent.output)")
        #expect(refused.first?["topic"] as? String == "beacon/lab/hosts/pi/status" && refused.first?["code"] as? Int == 135
                && refused.first?["stopping"] as? Bool == true, "\(agent.output)")
        #expect(agent.stderr.contains("the broker refused this host's status (Not authorized): are these pi's credentials"), "\(agent.output)")
        #expect(site.broker.log.contains("Denied PUBLISH"), "\(site.broker.log)")
    }

    @Test func aForbiddenDiscoveryPrefixIsSaidOncePerKind() async throws {
        let site = try await SiteFixture(hosts: ["pi"], radios: "  - {host: pi, adapter: virtual, position: {x: 0, y: 0}}",
                                         beacons: AgentTests.beacons, extra: "discovery_prefix: forbidden\n")
        let controller = try site.start(["site", site.siteFile, "--json"], as: SiteFixture.controller)
        defer { controller.send(SIGKILL) }
        let said = await controller.waitForOutput { out in
            AgentTests.jsonLines(out).contains { $0["event"] as? String == "publish_refused" && ($0["topic"] as? String)?.hasPrefix("forbidden/") == true }
        }
        #expect(said, "\(controller.output)")
        // Every discovery message has been refused once the retained status of the site is
        // published after them; each kind was said once.
        controller.send(SIGTERM)
        #expect(await controller.waitForExit(timeout: .seconds(60)) == 0, "\(controller.output)")
        let refused = AgentTests.jsonLines(controller.stdout).filter { $0["event"] as? String == "publish_refused" }
        let kinds = refused.compactMap { ($0["topic"] as? String).map { "\($0.split(separator: "/").prefix(2))" } }
        #expect(!kinds.isEmpty && Set(kinds).count == kinds.count, "once per kind: \(refused)")
        #expect(refused.allSatisfy { $0["code"] as? Int == 135 && $0["reason"] as? String == "Not authorized" }, "\(refused)")
        #expect(site.broker.log.components(separatedBy: "Denied PUBLISH").count - 1 > kinds.count, "more were refused than said: \(site.broker.log)")
    }
}
