// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconConsole
import BeaconEmulator
import BeaconJSON
import BeaconMaps
import BeaconMQTT
import BeaconProfiles
import BeaconSite
import BeaconWeb
import Foundation

/// `beacon site SITE.yaml`: the site's controller; `--plan`: which radio carries which beacon
/// (docs/SITE.md).
struct SiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "site",
        abstract: "Run or plan a site: many hosts and radios as one fleet, through an MQTT broker.",
        discussion: """
            A site file names the broker, the radios (host, adapter, position in metres, optional \
            capacity) and the beacons (inline entries or profile files, each with a position); \
            docs/SITE.md describes it. --plan prints which radio carries each beacon: the nearest \
            within max_distance that has room (its capacity, or what the coverage planner \
            promises for a Bluetooth 5 controller with 16 sets), and the beacons no radio can \
            carry, with why; --map FILE draws it (radios, beacons, which radio carries each). \
            A site file with issues is reported as validate reports profiles \
            (file:line:column: field: value: message) and the exit status is 65.

            Without --plan, runs the site's controller: connects to the broker (credentials as \
            for beacon agent), publishes each radio's desired fleet (retained, QoS 1, only \
            when it changes), follows each host's status and its radios' state, prints a line \
            per change (--json: one object per event; on a terminal, a live view of the whole \
            site: the radios online or not, the beacons on air, off air or in error, the unmet \
            coverage goals) and publishes Home Assistant discovery. \
            When a host goes offline its beacons are reported off air and, with failover: \
            nearest, placed again on the radios in reach. A restarted controller adopts what it \
            published before, so nothing on air changes. SIGHUP reads the site file again and \
            publishes only the desired fleets that change (a file with issues is reported and \
            the site stays as it was); when its terminal has closed, SIGHUP stops it. SIGINT \
            or SIGTERM stops it; the \
            beacons stay on air with their agents. A site without a broker (its radios all on \
            this host) runs here: the radios opened, each one's beacons on air (on -i virtual, \
            heard from the radio's position) until SIGINT, SIGTERM or SIGHUP. --web [HOST:]PORT serves \
            a live page of it: the map with the radios online or not and the beacons on or off air.

            Examples:
              beacon site examples/site-lab.yaml --plan
              beacon site examples/site-lab.yaml --plan --json
              beacon site examples/site-lab.yaml --json
            """
    )

    @Argument(help: ArgumentHelp("The site file (YAML or JSON).", valueName: "site"))
    var file: String

    @Flag(help: "Print the placement and exit.")
    var plan = false

    @Flag(help: "Print the placement as one JSON object; without --plan, one JSON object per event.")
    var json = false

    @OptionGroup var mapOptions: MapOptions

    @OptionGroup var webOptions: WebOptions

    func validate() throws {
        if mapOptions.map != nil, !plan { throw ValidationError("--map draws the placement: it goes with --plan") }
        if webOptions.web != nil, plan { throw ValidationError("--web serves a running site; it does not go with --plan") }
    }

    mutating func run() async throws {
        SiteEventTime.start()
        let site: Site
        switch SiteFiles.load(file) {
        case .success(let loaded): site = loaded
        case .failure(let code): throw code
        }
        let placement = SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios)
        guard plan else {
            // --web: the page follows the site's events (radios online, beacons on air).
            let page = SitePage(site: site, placement: placement, title: "beacon site \(file)")
            let board = SiteStatusBoard.onTerminal(site: site, placement: placement, file: file, json: json)
            let changes = LivePageChanges()
            return try await webOptions.serving(changes, { page.snapshot() }) {
                try await runController(site, board: board, page: webOptions.web == nil ? nil : page, changes: changes)
            }
        }
        try mapOptions.check(inputs: [file])
        if json {
            LineOutput.out(SitePlanJSON.object(site: site, placement: placement).text)
        } else {
            for line in SitePlanText.lines(site: site, placement: placement) { LineOutput.out(line) }
        }
        try mapOptions.write(MapScene.site(site, placement: placement, title: "beacon site \(file) --plan"))
    }

    private func runController(_ site: Site, board: SiteStatusBoard, page: SitePage?, changes: LivePageChanges) async throws {
        guard let broker = site.broker else { return try await runLocally(site, board: board, page: page, changes: changes) }
        let client: MQTTClient
        do throws(MQTTError) {
            client = try SiteController.client(for: site, broker: broker, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CommandFailure.exit("\(error)")
        }
        let controller = SiteController(site: site, client: client, report: { event in
            page?.record(event)
            changes.changed()
            board.record(event)
        })
        let file = file
        let signals = StopSignals(hangup: {
            // A closed terminal also sends SIGHUP: then the controller stops, as SIGINT does,
            // rather than going on unseen with the site's session.
            if TerminalHangup.hungUp {
                board.note(TerminalHangup.message)
                controller.requestStop()
                return
            }
            board.note("SIGHUP: reading \(file) again")
            switch SiteFiles.load(file, rereading: true, say: board.note) {
            case .failure:
                board.note("the site file has issues (above); the site stays as it was")
            case .success(let edited):
                // The view and the page follow the controller's own placement (its placed event).
                if let refusal = controller.reload(edited) { board.note("error: \(refusal)") }
            }
        })
        defer { signals.cancel() }
        signals.onStop { _ in controller.requestStop() }
        let redrawing = board.redrawing()
        defer {
            redrawing?.cancel()
            board.finishView()
        }
        do throws(MQTTError) { try await controller.run() } catch {
            throw CommandFailure.exit("\(error)")
        }
    }

    /// A site of one host, without a broker: its radios opened here.
    private func runLocally(_ site: Site, board: SiteStatusBoard, page: SitePage?, changes: LivePageChanges) async throws {
        guard site.hosts.count == 1 else {
            throw CommandFailure.exit("\(file): the radios are on several hosts; they meet at a broker (broker: {url: mqtt://HOST})")
        }
        // SIGHUP too: a site without a broker has its radios here, so a hangup stops it with
        // their teardown, as SIGINT does.
        let stop = StopSignals.withHangup()
        let radios = try SiteRadios.open(site.radios)
        defer { for radio in radios { radio.connection.close() } }
        let run = LocalSiteRun(site: site, radios: radios, naming: CommandLineTerms.name, report: { event in
            page?.record(event)
            changes.changed()
            board.record(event)
        })
        stop.onStopSayingHangup { run.requestStop() }
        let outcomes: [(radio: SiteRadio.ID, outcome: FleetOutcome)]
        let redrawing = board.redrawing()
        do throws(SiteAgentError) { outcomes = try await run.run() } catch {
            redrawing?.cancel()
            board.finishView()
            throw CommandFailure.exit("\(error)")
        }
        redrawing?.cancel()
        board.finishView()
        try SiteRadios.reportTeardowns(outcomes)
    }
}
