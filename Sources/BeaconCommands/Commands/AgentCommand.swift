// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconEmulator
import BeaconMQTT
import BeaconSite
import Foundation

/// `beacon agent --site SITE --host NAME` (or `--broker URL --site-name NAME -i ADAPTER` instead
/// of the site file): one host of a site (docs/SITE.md).
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
            the broker is away the beacons stay on air. SIGINT, SIGTERM or SIGHUP (the terminal \
            closed; an agent has nothing to reload) takes them off air; \
            exit status 1 if a teardown failed (the message says what may still be on air), or \
            if the radios or the broker could not be reached at the start (the broker's answer \
            in one line).

            Without a site file, --broker, --site-name and -i say what the site file would \
            (the flags of its broker section: --ca-file, --cert-file, --key-file, --credentials), \
            checked as the file is.

            Examples:
              beacon agent --site examples/site-lab.yaml --host pi-west
              beacon agent --site examples/site-lab.yaml --host pi-east --json
              beacon agent --broker mqtt://127.0.0.1:1883 --site-name lab --host pi-west -i virtual --credentials /etc/beacon/mqtt.credentials
            """
    )

    @Option(help: ArgumentHelp("The site file (or, without one, --broker, --site-name and -i).", valueName: "site"))
    var site: String?

    @Option(help: ArgumentHelp("This host's name in the site (its MQTT user name).", valueName: "name"))
    var host: String

    @Option(name: [.customShort("i"), .customLong("adapter")],
            help: ArgumentHelp("A radio of this host, without a site file, as a site file names it (hci0, user:hci1, virtual, virtual-east); repeat for several.", valueName: "adapter"))
    var adapters: [String] = []

    @OptionGroup(title: "Broker (without a site file)")
    var broker: BrokerOptions

    @Flag(help: "Print one JSON object per event.")
    var json = false

    func validate() throws {
        if site != nil {
            guard !broker.given, adapters.isEmpty else {
                throw ValidationError("--site names the broker and the radios; give either --site or --broker, --site-name and -i")
            }
            return
        }
        guard broker.given || !adapters.isEmpty else {
            throw ValidationError("give --site SITE, or --broker URL, --site-name NAME and -i ADAPTER")
        }
        _ = try broker.checked(host: host, adapters: adapters)
    }

    mutating func run() async throws {
        SiteEventTime.start()
        let siteName: String
        let brokerSettings: SiteBroker
        let mine: [SiteRadio]
        if let file = self.site {
            let site: Site
            switch SiteFiles.load(file) {
            case .success(let loaded): site = loaded
            case .failure(let code): throw code
            }
            mine = site.radios(of: host)
            guard !mine.isEmpty else {
                throw CommandFailure.exit("--host \(host): the site has no radio on this host; its hosts: \(site.hosts.joined(separator: ", "))", code: ExitStatus.usage)
            }
            guard let broker = site.broker else {
                throw CommandFailure.exit("\(file): the site names no broker; an agent meets its controller at one (broker: {url: mqtt://HOST})")
            }
            (siteName, brokerSettings) = (site.name, broker)
        } else {
            let checked = try broker.checked(host: host, adapters: adapters)
            (siteName, brokerSettings, mine) = (checked.site, checked.broker, checked.radios)
        }
        let topics = SiteTopics(site: siteName)
        let client: MQTTClient
        do throws(MQTTError) {
            let configuration = try brokerSettings.clientConfiguration(clientID: "beacon-agent-\(siteName)-\(host)",
                                                               will: SiteAgent.lastWill(topics: topics, host: host),
                                                               environment: ProcessInfo.processInfo.environment)
            client = try MQTTClient(configuration)
        } catch {
            throw CommandFailure.exit("\(error)")
        }
        // SIGHUP too: an agent has nothing to reload, so a hangup (its terminal closed, or one
        // sent) stops it with its teardown, as SIGINT does, rather than killing it with beacons
        // on air and its retained state still saying so.
        let stop = StopSignals.withHangup()
        // Where the radios are is the site file's (the controller's) business: without one, the
        // virtual air hears each beacon from its own position.
        let radios = try SiteRadios.open(mine, positioned: self.site != nil)
        defer { for radio in radios { radio.connection.close() } }
        let json = json
        let agent = SiteAgent(host: host, topics: topics, client: client, radios: radios, naming: CommandLineTerms.name, report: { event in
            LineOutput.out(json ? event.json(time: SiteEventTime.now).text : event.text)
        })
        stop.onStopSayingHangup { agent.requestStop() }
        let outcomes: [(radio: SiteRadio.ID, outcome: FleetOutcome)]
        do throws(SiteAgentError) { outcomes = try await agent.run() } catch {
            throw CommandFailure.exit("\(error)")
        }
        try SiteRadios.reportTeardowns(outcomes)
        if let refused = agent.statusRefused {
            throw CommandFailure.exit("the broker refused this host's status (\(refused.escapingControlCharacters)): are these \(host)'s credentials, and does the ACL let it write \(topics.hostStatus(host))? Its beacons were taken off air")
        }
    }
}
