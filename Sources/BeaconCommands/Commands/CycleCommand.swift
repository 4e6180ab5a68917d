// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles

/// `beacon cycle PROFILE… --dwell 2s`: one beacon at a time through a single advertiser, each for
/// the dwell time, in file order (or shuffled); for walking a phone through many identities.
struct CycleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cycle",
        abstract: "Advertise the beacons of profile files one after another.",
        discussion: """
            All beacons of the files (and the one --uuid/--major/--minor give), in order, each \
            on air for --dwell (default 2s) through one advertiser \
            (one extended advertising set, or the legacy advertiser). --loop (the default) \
            repeats until Ctrl-C; --once stops after one pass. A line (--json: a JSON object) is \
            printed when each beacon goes on air (on a terminal: a live view); with -i virtual, \
            --air-log FILE writes the air log.

            Profiles with issues: every issue printed, exit 65, no adapter opened. SIGINT and \
            SIGTERM stop cleanly (exit 0); SIGHUP reloads the files (regular files only: a \
            FIFO is refused and the old beacons stay), or stops the run as SIGINT does when \
            the terminal it runs on has closed.

            --web [HOST:]PORT serves the map and this table as a live page while the run \
            lasts (see advertise --web).

            Examples:
              beacon cycle profiles/room-2m.yaml -i virtual --dwell 1s --once
              beacon cycle profiles/bm1.yaml -i virtual --once --json
            """
    )

    @Argument(help: ArgumentHelp("Profile files (YAML or JSON); - reads standard input.", valueName: "profile"), completion: .file())
    var files: [String] = []

    @OptionGroup(title: "A beacon from the command line (instead of or next to files)")
    var commandLineBeacon: CommandLineBeaconOptions

    @Option(help: ArgumentHelp("How long each beacon stays on air: 2s, 500ms, 1m30s, or seconds.", valueName: "duration"))
    var dwell = DurationArgument(argument: "2s")!

    @Flag(help: "Repeat until stopped (the default).")
    var loop = false

    @Flag(help: "Stop after one pass through the beacons.")
    var once = false

    @Flag(help: "Shuffle the order (once per run).")
    var shuffle = false

    @OptionGroup var controller: ControllerOptions

    @OptionGroup var airLog: AirLogOptions

    @OptionGroup var webOptions: WebOptions

    @Flag(help: "One JSON object per event and line.")
    var json = false

    func validate() throws {
        if files.isEmpty, !commandLineBeacon.isGiven { throw ValidationError("give at least one profile file, or a beacon with --uuid, --major and --minor") }
        if loop && once { throw ValidationError("--loop and --once exclude each other") }
        if dwell.duration < .milliseconds(20) { throw ValidationError("--dwell must be at least 20ms (got \(dwell))") }
    }

    mutating func run() async throws {
        let files = self.files
        let shuffle = self.shuffle
        let order: @Sendable ([BeaconProfile]) -> [BeaconProfile] = { shuffle ? $0.shuffled() : $0 }
        let extra = commandLineBeacon.profile
        let beacons = order(try ProfileFiles.loadBeacons(files, extra: extra).get())
        guard !beacons.isEmpty else { throw CommandFailure.exit("the profile files define no beacons") }
        // One set (or the legacy advertiser) rotating with turns of the dwell time.
        // One beacon at a time is the point: no coverage goal to warn about.
        let planner = FleetPlanner(slotDuration: dwell.duration, maximumSets: 1, maximumSilence: dwell.duration * max(1, beacons.count))
        let dwell = self.dwell.duration
        let once = self.once
        let json = self.json
        try await webOptions.serving(files: files) { watch throws(ExitCode) in
            try await FleetSession(
                controller: controller, inputs: files, planner: planner, style: { [airLog] _ in .choose(json: json, airLog: airLog) },
                showsOffAir: false, planOnly: false, verbose: false, json: json,
                // One pass: as many turns as beacons. Several adapters share the beacons, so a pass
                // is as long as the longest share.
                duration: { adapters in once ? dwell * ((beacons.count + adapters - 1) / adapters) : nil },
                reload: { ProfileFiles.loadBeacons(files, extra: extra, accepting: .regularFiles).success.map(order) },
                airLog: airLog, watch: watch
            ).run(beacons)
        }
    }
}
