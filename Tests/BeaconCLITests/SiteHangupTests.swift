// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// SIGHUP in the site's commands: `agent`, a site without a broker and `play --site` have nothing
/// to reload and stop as on SIGINT (with their teardown, exit 0), and the controller, which reads
/// its site file again on SIGHUP, stops once its terminal has closed. Before, SIGHUP killed the
/// first three (exit 129, no teardown, the agent's retained state still saying on air) and the
/// controller outlived its closed terminal.
@Suite(.serialized) struct SiteHangupTests {
    static let stopping = "SIGHUP: the terminal hung up (or a hangup was sent): stopping"

    static func credentials(_ user: MosquittoBroker.User) -> [String] {
        ["BEACON_MQTT_USERNAME=\(user.name)", "BEACON_MQTT_PASSWORD=\(user.password)"]
    }

    @Test("SIGHUP stops a site without a broker with its radios' teardown, exit 0")
    func siteWithoutABroker() async throws {
        let air = try SharedAirTests.privateAir()
        let file = try BeaconExecutable.temporaryFile(named: "site.yaml", contents: TwoRadioSite.yaml(name: "hup", major: 3))
        let run = try SharedAirTests.start(["site", file, "--json"], air: air)
        // Hang bounds only: each step is an event waited for.
        #expect(await run.waitForOutput(containing: #""event":"on_air""#), "\(run.output)")
        run.send(SIGHUP)
        #expect(await run.waitForExit(timeout: .seconds(30)) == 0, "\(run.output)")
        #expect(run.stderr.contains(Self.stopping), "\(run.output)")
    }

    @Test("SIGHUP stops an agent with its teardown, exit 0")
    func agent() async throws {
        let users = ["site-controller", "pi-a"].map { MosquittoBroker.User(name: $0, password: "\($0)-secret", acl: ["topic readwrite #"]) }
        let broker = try await MosquittoBroker(users: users)
        let air = try SharedAirTests.privateAir()
        let agent = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air)"] + Self.credentials(users[1])
            + [try Executables.beacon.get().path, "agent", "--host", "pi-a", "--site-name", "hup", "-i", "virtual", "--broker", broker.url])
        defer { agent.send(SIGKILL) }
        #expect(await agent.waitForOutput(containing: "connected"), "\(agent.output)\n\(broker.log)")
        agent.send(SIGHUP)
        #expect(await agent.waitForExit(timeout: .seconds(30)) == 0, "\(agent.output)")
        #expect(agent.stderr.contains(Self.stopping), "\(agent.output)")
    }

    @Test("closing the controller's terminal stops it (SIGHUP reloads only while the terminal is there), exit 0")
    func controllerOnAClosedTerminal() async throws {
        let users = ["site-controller"].map { MosquittoBroker.User(name: $0, password: "\($0)-secret", acl: ["topic readwrite #"]) }
        let broker = try await MosquittoBroker(users: users)
        let air = try SharedAirTests.privateAir()
        let file = try BeaconExecutable.temporaryFile(named: "site.yaml", contents: """
            name: hup
            broker: {url: "\(broker.url)"}
            radios:
              - {host: pi-a, adapter: virtual, position: {x: 0, y: 0}}
            beacons:
              - {name: door, uuid: \(TwoRadioSite.uuid), major: 7, minor: 1, position: {x: 1, y: 0}}
            """)
        let beacon = try Executables.beacon.get().path
        // Ready once the live view's table is drawn (its title is cut to the pty's width).
        let result = try Program.run(URL(fileURLWithPath: "/usr/bin/env"),
                                     ["python3", "-c", HostileInputTests.onClosingTerminal, "RADIO ", "env", "BEACON_AIR=\(air)", "TERM=xterm"]
                                     + Self.credentials(users[0]) + [beacon, "site", file])
        #expect(result.stdout == "exit 0\n", "\(result)\n\(broker.log)")
    }
}
