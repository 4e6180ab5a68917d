// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconConsole
import BeaconEmulator
import BeaconProfiles
import BeaconMaps
import BeaconScenarios

/// `beacon play SCENARIO.yaml`: plays a scenario's timeline over its fleet.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a scenario: beacons appear, disappear and change on a timeline.",
        discussion: """
            A scenario names a fleet profile (fleet: FILE, relative to the scenario) or embeds \
            one (fleet: {defaults: …, beacons: […]}), and lists steps at times from its start: \
            show and hide beacons, or change a beacon's major, minor, measured_power, tx_power \
            or interval; blocks of steps repeat (repeat: N, every: 10s), and the whole scenario \
            can loop (loop: true, or loop: N with duration:). docs/SCENARIOS.md describes the \
            format; scenarios/ has examples.

            The scenario is checked first, with its fleet: every issue is printed with \
            file:line:column, the exit status is 65 and no adapter is opened. --dry-run prints \
            the timeline with the HCI commands each step sends (for an assumed controller, as \
            advertise --dry-run). While playing, each step prints the scenario clock, what \
            changed, what is on air and the next step (on a terminal, a live view shows the \
            beacons, the scenario clock and the next step; a beacon the scenario hides keeps \
            its row, off air since the hide, until it is shown again); the run ends after \
            the last pass (SIGINT, SIGTERM or SIGHUP (the terminal closed; a scenario has \
            nothing to reload) stop it earlier, with the same teardown as advertise).

            --from T starts at scenario time T (the fleet as it is then goes on air at once), \
            --duration D plays D of scenario time from there, and --speed X runs the scenario \
            clock X times as fast (0.01 to 1000; times in the output stay scenario times). Only \
            the scenario clock changes: the beacons advertise at their own intervals. \
            A plan line is printed when the plan changes (beacons placed or removed), not at \
            every step.

            --web [HOST:]PORT serves the map and this table as a live page while the run \
            lasts (see advertise --web); a hidden beacon keeps its marker, in the off-air style.

            --site SITE.yaml plays the scenario across a site instead (docs/SITE.md): each \
            step's beacons are published through the site's broker as the controller publishes \
            a site's, each on the radio nearest it (every beacon needs a position), and the \
            hosts' agents put them on air; only the desired fleets a step changes are sent. Run \
            it in place of beacon site: when it ends the site keeps the last step on air.

            Examples:
              beacon play scenarios/region-exit.yaml --dry-run
              beacon play scenarios/walk-past.yaml -i virtual
              beacon play scenarios/store-opening.yaml -i virtual --from 30s --duration 20s --speed 10
            """
    )

    @Argument(help: ArgumentHelp("The scenario file.", valueName: "scenario.yaml"), completion: .file())
    var scenario: String

    @OptionGroup var controller: ControllerOptions

    @Option(help: ArgumentHelp("Play across a site (docs/SITE.md): its radios carry the scenario's beacons, each on the radio nearest it, through its broker.", valueName: "site.yaml"), completion: .file())
    var site: String?

    @OptionGroup var airLog: AirLogOptions

    @Flag(help: "Use legacy advertising (one advertiser, beacons take turns) even where extended advertising exists.")
    var legacy = false

    @Option(name: .customLong("max-sets"), help: ArgumentHelp("Use at most this many extended advertising sets per controller (--dry-run assumes 16).", valueName: "n"))
    var maxSets: Int?

    @Flag(name: .customLong("dry-run"), help: "Open no adapter; print the timeline with the HCI commands of each step.")
    var dryRun = false

    @Flag(help: "JSON output: the dry-run commands, or one event per line while playing.")
    var json = false

    @OptionGroup var mapOptions: MapOptions

    @OptionGroup var webOptions: WebOptions

    @Option(help: ArgumentHelp("Run the scenario clock this many times as fast: 0.01 to 1000 (beacon intervals are not scaled).", valueName: "x"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Start at this scenario time (35s, 1m30s): the fleet as it is then goes on air at once.", valueName: "time"))
    var from: TimeOffsetArgument?

    @Option(help: ArgumentHelp("Play this much scenario time, then stop (10s, 2m; at --speed 10, 10s takes 1 s).", valueName: "duration"))
    var duration: DurationArgument?

    /// The part of the scenario played, and how fast.
    var window: PlaybackWindow {
        PlaybackWindow(from: from?.offset.duration.seconds ?? 0, duration: duration?.duration.seconds, speed: speed)
    }

    func validate() throws {
        if let maxSets, !(1...240).contains(maxSets) { throw ValidationError("--max-sets must be from 1 to 240 (got \(maxSets))") }
        do throws(PlaybackWindow.Problem) { try window.check() } catch { throw ValidationError("--\(error)") }
        if site != nil, dryRun || controller.adapter != nil || webOptions.web != nil || mapOptions.map != nil {
            throw ValidationError("--site plays on the site's radios: it takes no -i, --dry-run, --web or --map")
        }
        if dryRun, from != nil || duration != nil || speed != 1 {
            throw ValidationError("--dry-run lists every step of the scenario: it takes no --from, --duration or --speed")
        }
    }

    mutating func run() async throws {
        let loaded: Scenario
        do {
            loaded = try ScenarioLoader.load(contentsOf: scenario)
        } catch {
            for issue in error.issues { LineOutput.err(issue.description) }
            throw error.issues.contains(where: \.isUnreadableFile) ? ExitStatus.runtimeFailure : ExitStatus.dataError
        }
        let timeline = ScenarioTimeline(loaded)
        try mapOptions.check(inputs: [scenario, loaded.fleet.file])
        let planner = FleetPlanner(forceLegacy: legacy, maximumSets: maxSets)
        if dryRun {
            if let spec = controller.specs?.first(where: { if case .management = $0 { true } else { false } }) {
                throw CommandFailure.exit("--dry-run lists HCI commands, and \(spec) is driven through the kernel's management API")
            }
            let assumed = DryRun(controller: controller, planner: planner, legacy: legacy, maxSets: maxSets, json: json)
            do throws(ScenarioCommandListing.Refusal) {
                try ScenarioCommandListing.list(timeline, planner: planner, capabilities: assumed.capabilities(),
                                                hcitoolAdapter: controller.hcitoolAdapter, json: json) { LineOutput.out($0) }
            } catch {
                throw CommandFailure.exit("\(error)")
            }
            try writeMap(timeline)
            return
        }
        let window = self.window
        do throws(PlaybackWindow.Problem) { try window.check(against: timeline) } catch {
            throw CommandFailure.exit("--\(error)", code: ExitStatus.usage)
        }
        if let site { return try await play(timeline, window: window, onSite: site) }
        let player = ScenarioPlayer(timeline, window: window)
        let json = self.json
        let style = RunStatusBoard.Style.choose(json: json, airLog: airLog)
        PlaybackOutput.announce(timeline, window: window)
        let inputs = [scenario, loaded.fleet.file]
        try await webOptions.serving(files: inputs) { watch throws(ExitCode) in try await FleetSession(
            controller: controller, inputs: inputs, planner: planner,
            style: { _ in style },
            showsOffAir: true, planOnly: false, verbose: false, json: json, duration: { _ in nil },
            reload: nil,
            conduct: { fleet, board in
                let output = PlaybackOutput(json: json, window: window)
                let progress = PlaybackProgress(start: output.start)
                // The live view's title and the --web page's (a pipe gets lines, the page still the clock).
                board.show { progress.scenarioHeadline(loaded, window: window) }
                // The scenario's beacons keep their rows (and markers) while off air.
                board.keep(ScenarioOffAir(timeline, at: window.from))
                await player.play(on: fleet, from: output.start) { event in
                    progress.record(event)
                    board.follow(event)
                    output.show(event, board: board)
                    if case .finished = event { fleet.requestStop() }
                }
            },
            preflight: { fleet throws(ExitCode) in
                let capabilities: [ControllerCapabilities]
                do throws(AdapterError) { capabilities = try await fleet.probe() } catch { throw CommandFailure.exit("\(error)") }
                let refusals = ScenarioPreflight.refusals(timeline, planner: planner, capabilities: capabilities) { fleet.isStopRequested }
                guard refusals.isEmpty else {
                    for r in refusals { LineOutput.err(r.description) }
                    throw ExitStatus.dataError
                }
            },
            airLog: airLog, watch: watch
        ).run(player.initialBeacons) }
        try writeMap(timeline)
    }

    /// `--map`: the scenario's plan at its start; an HTML page has a slider through one pass.
    func writeMap(_ timeline: ScenarioTimeline) throws(ExitCode) {
        try mapOptions.write(MapScene.scenario(timeline, title: "beacon play \(scenario)"), timeline: MapTimeline(timeline))
    }
}
