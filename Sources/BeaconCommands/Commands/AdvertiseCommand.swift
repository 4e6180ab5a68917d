// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import HCITransport
import VirtualController

/// `beacon advertise PROFILE…`: puts the beacons of profile files on air until the duration
/// passes or Ctrl-C, then takes them off again.
struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Advertise the beacons of profile files.",
        discussion: """
            The profiles are checked first: with any issue, every issue is printed, the exit \
            status is 65 and no adapter is opened. Then beacon probes the controllers, plans \
            the beacons across them (one extended advertising set per beacon where there are \
            enough; otherwise beacons take turns of --slot on a set, or on the one legacy \
            advertiser), prints the plan on standard error and advertises.

            While running: on a terminal a live view that fits it (TERM=dumb: lines; NO_COLOR: \
            no colour); otherwise one line per change (--json: \
            one JSON object per event). With -i virtual and --air-log FILE, every advertising \
            event the virtual controller puts on air is written to FILE as an "air …" line. \
            While beacons take turns, the run measures each one's silences from the \
            controller's answers: once a beacon misses the plan, a line says so with the \
            cause (a slow controller, slow or late turns) and what would meet it, and at the \
            end a line says whether coverage was as planned (the exit status stays 0). \
            Commands clearly slower or faster than planned re-plan the turns.

            SIGINT (Ctrl-C), SIGTERM, the duration, or a closed standard output (a pipe whose \
            reader went away) stop: advertising off, sets removed, exit 0; a second SIGINT or \
            SIGTERM quits at once (130). Signals are handled from before the first byte goes \
            to a controller: a stop during start-up undoes what was sent. If a controller \
            fails, or any teardown command fails, the output names the adapter and the beacons \
            that may still be on air and the exit status is 1 (never "sets removed"). A Hardware \
            Error event from a controller stops the run the same way. SIGHUP reloads the \
            profile files: if their beacons changed, only the difference is sent (unchanged \
            beacons stay on air untouched, removed ones go off air, new ones come on); reloads \
            in quick succession coalesce and the last one always wins; if the files have \
            issues, or one is no longer a regular file (a FIFO), they are printed and the old \
            beacons stay on air. A SIGHUP from a terminal that has closed stops the run as \
            SIGINT does.

            A beacon without a file: --uuid, --major and --minor (with --power, --interval, \
            --flags, --address, --name, --tx-power if wanted), alone or next to profile files; \
            it is checked against the files' beacons as the files are against each other. A \
            profile file may be - (standard input) or a pipe such as <(cat FILE).

            With -i virtual, the controller is on the shared virtual air: `beacon scan -i \
            virtual` in another process hears the beacons, RSSI following each beacon's \
            position (see scan --at).

            --web [HOST:]PORT serves a live page while the run lasts: the plan's map and this \
            table, updated within 100 ms of each change, for any number of browsers (one that \
            reconnects gets the current state first). It listens on 127.0.0.1 unless HOST is \
            given, port 0 picks a free one, and the URL is printed on standard error.

            --dry-run opens nothing: it prints every HCI command a run would send (preamble, \
            setup, each turn of one rotation cycle, teardown) as H4 bytes and as hcitool lines, \
            for an assumed controller (extended advertising with --max-sets sets, default 16; \
            Bluetooth 4.2 legacy with --legacy; or the virtual controller -i virtual:… describes).

            Examples:
              beacon advertise profiles/room-2m.yaml -i virtual --duration 5
              beacon advertise profiles/bm1.yaml --legacy --dry-run
              beacon advertise profiles/station-160.yaml -i virtual --plan
            """
    )

    @Argument(help: ArgumentHelp("Profile files (YAML or JSON); - reads standard input.", valueName: "profile"), completion: .file())
    var files: [String] = []

    @OptionGroup(title: "A beacon from the command line (instead of or next to files)")
    var commandLineBeacon: CommandLineBeaconOptions

    @OptionGroup var controller: ControllerOptions

    @OptionGroup var airLog: AirLogOptions

    @Option(help: ArgumentHelp("How long to advertise: 30s, 500ms, 2m, 1m30s, or seconds (default: until Ctrl-C).", valueName: "duration"))
    var duration: DurationArgument?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Advertise only the beacons with these names.", valueName: "name"))
    var only: [String] = []

    @Flag(help: "Use legacy advertising (one advertiser, beacons take turns) even where extended advertising exists.")
    var legacy = false

    @Option(help: ArgumentHelp("How long each beacon stays on air in its turn when beacons take turns (default: three of its intervals, at least 100 ms).", valueName: "duration"))
    var slot: DurationArgument?

    @Flag(name: .customLong("share-address"), help: "Beacons taking turns on one advertiser share its first beacon's address: one command per turn instead of four (phones ranging iBeacons never see addresses).")
    var shareAddress = false

    @Option(name: .customLong("max-sets"), help: ArgumentHelp("Use at most this many extended advertising sets per controller (--dry-run assumes 16).", valueName: "n"))
    var maxSets: Int?

    @Option(name: .customLong("max-silence"), help: ArgumentHelp("The coverage goal: every beacon on air at least this often (default 1s: iOS ranges once a second). Rotating beacons get turns and intervals short enough to meet it; when physics cannot, the plan says what it reaches and how many adapters would meet it.", valueName: "duration"))
    var maxSilence: DurationArgument?

    @Flag(help: "With --plan (or before a run): the per-beacon table even for a large fleet.")
    var verbose = false

    @Flag(help: "Probe the controllers, print the plan (a summary; --verbose: and the per-beacon table; --json: JSON) and exit.")
    var plan = false

    @OptionGroup var mapOptions: MapOptions

    @OptionGroup var webOptions: WebOptions

    @Flag(name: .customLong("dry-run"), help: "Open no adapter; print every HCI command a run would send.")
    var dryRun = false

    @Flag(help: "JSON output: the plan, the dry-run commands, or one event per line while running.")
    var json = false

    func validate() throws {
        if files.isEmpty, !commandLineBeacon.isGiven { throw ValidationError("give at least one profile file, or a beacon with --uuid, --major and --minor") }
        if let maxSets, !(1...240).contains(maxSets) { throw ValidationError("--max-sets must be from 1 to 240 (got \(maxSets))") }
        if plan && dryRun { throw ValidationError("--plan and --dry-run exclude each other (--dry-run prints the plan's commands)") }
        if mapOptions.map != nil, !plan { throw ValidationError("--map goes with --plan (a map of which adapter and set carries each beacon)") }
        if webOptions.web != nil, plan || dryRun { throw ValidationError("--web serves a running fleet; it does not go with --plan or --dry-run") }
        if let slot, slot.duration < .milliseconds(20) { throw ValidationError("--slot must be at least 20ms (got \(slot))") }
        if let maxSilence, maxSilence.duration < .milliseconds(20) { throw ValidationError("--max-silence must be at least 20ms, the shortest advertising interval (got \(maxSilence))") }
    }

    var planner: FleetPlanner {
        FleetPlanner(forceLegacy: legacy, slotDuration: slot?.duration, maximumSets: maxSets, shareAddresses: shareAddress,
                     maximumSilence: maxSilence?.duration ?? .seconds(1))
    }

    mutating func run() async throws {
        let files = self.files
        let only = self.only
        let extra = commandLineBeacon.profile
        let beacons = try ProfileFiles.loadBeacons(files, extra: extra).flatMap { ProfileFiles.select($0, only: only) }.get()
        guard !beacons.isEmpty else { throw CommandFailure.exit("the profile files define no beacons") }
        if dryRun {
            // The dry run lists HCI commands; a mgmt: adapter gets management API commands instead.
            if let spec = controller.specs?.first(where: { if case .management = $0 { true } else { false } }) {
                throw CommandFailure.exit("--dry-run lists HCI commands, and \(spec) is driven through the kernel's management API (Add Extended Advertising Parameters/Data per beacon); use --plan -i \(spec) to see the plan")
            }
            for spec in controller.specs ?? [] {
                if case .management = BackendChoice.forAdvertising(spec).spec {
                    LineOutput.err("note: bluetoothd is running, so a run on \(spec) would use the kernel's management API; these are the commands of -i raw:\(spec)")
                }
            }
            try DryRun(controller: controller, planner: planner, legacy: legacy, maxSets: maxSets, json: json).print(beacons)
            return
        }
        let json = self.json
        let duration = self.duration?.duration
        try mapOptions.check(inputs: files)
        let mapOptions = self.mapOptions
        try await webOptions.serving(files: files) { watch throws(ExitCode) in
            try await FleetSession(
                controller: controller, inputs: files, planner: planner,
                style: { [airLog] _ in .choose(json: json, airLog: airLog) },
                showsOffAir: true, planOnly: plan, verbose: verbose, json: json, duration: { _ in duration },
                reload: { ProfileFiles.loadBeacons(files, extra: extra, accepting: .regularFiles).flatMap { ProfileFiles.select($0, only: only) }.success },
                airLog: airLog,
                planned: { plan throws(ExitCode) in try mapOptions.write(PlanMap.scene(plan, files: files)) },
                watch: watch
            ).run(beacons)
        }
    }
}

extension Result {
    /// The value, or nil on failure.
    var success: Success? { if case .success(let v) = self { v } else { nil } }
}
