// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconEmulator
import BeaconMQTT
import BeaconSite
import Foundation

/// `beacon agent --site SITE --host NAME`: one host of a site (docs/SITE.md).
struct AgentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Run one host of a site: its radios carry what the site's controller asks for, over MQTT.",
        discussion: """
            Opens the radios the site file gives the host (adapter names as -i takes them; a \
            name beginning with virtual, such as virtual-east, is the built-in virtual \
            controller), connects to the site's broker (credentials from the site's \
            credentials_file, mode 0600, or BEACON_MQTT_USERNAME and BEACON_MQTT_PASSWORD; \
            never the command line), announces the radios with a Last Will offline, puts each \
            radio's desired fleet on air (only the difference; a payload delivered twice \
            changes nothing) and publishes each beacon's state and the host's telemetry. While \
            the broker is away the beacons stay on air. SIGINT or SIGTERM takes them off air; \
            exit status 1 if a teardown failed (the message says what may still be on air), or \
            if the radios or the broker could not be reached at the start (the broker's answer \
            in one line).

            Examples:
              beacon agent --site examples/site-lab.yaml --host pi-west
              beacon agent --site examples/site-lab.yaml --host pi-east --json
            """
    )

    @Option(help: ArgumentHelp("The site file.", valueName: "site"))
    var site: String

    @Option(help: ArgumentHelp("This host's name in the site file (its MQTT user name).", valueName: "name"))
    var host: String

    @Flag(help: "Print one JSON object per event.")
    var json = false

    mutating func run() async throws {
        SiteEventTime.start()
        let site: Site
        switch SiteFiles.load(self.site) {
        case .success(let loaded): site = loaded
        case .failure(let code): throw code
        }
        let mine = site.radios(of: host)
        guard !mine.isEmpty else {
            throw CommandFailure.exit("--host \(host): the site has no radio on this host; its hosts: \(site.hosts.joined(separator: ", "))", code: ExitStatus.usage)
        }
        guard let broker = site.broker else {
            throw CommandFailure.exit("\(self.site): the site names no broker; an agent meets its controller at one (broker: {url: mqtt://HOST})")
        }
        let topics = SiteTopics(site)
        let client: MQTTClient
        do throws(MQTTError) {
            let configuration = try broker.clientConfiguration(clientID: "beacon-agent-\(site.name)-\(host)",
                                                               will: SiteAgent.lastWill(topics: topics, host: host),
                                                               environment: ProcessInfo.processInfo.environment)
            client = try MQTTClient(configuration)
        } catch {
            throw CommandFailure.exit("\(error)")
        }
        let stop = StopSignals()
        let radios = try SiteRadios.open(mine)
        defer { for radio in radios { radio.connection.close() } }
        let json = json
        let agent = SiteAgent(host: host, topics: topics, client: client, radios: radios, report: { event in
            LineOutput.out(json ? event.json(time: SiteEventTime.now).text : event.text)
        })
        stop.onStop { _ in agent.requestStop() }
        let outcomes: [(radio: SiteRadio.ID, outcome: FleetOutcome)]
        do throws(SiteAgentError) { outcomes = try await agent.run() } catch {
            throw CommandFailure.exit("\(error)")
        }
        try SiteRadios.reportTeardowns(outcomes)
    }
}
