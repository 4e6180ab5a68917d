// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconEmulator
import BeaconProfiles

/// `beacon cycle PROFILE… --dwell 2s`: one beacon at a time through a single advertiser, each for
/// the dwell time, in file order (or shuffled); for walking a phone through many identities.
struct CycleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cycle",
        abstract: "Advertise the beacons of profile files one after another.",
        discussion: """
            All beacons of the files, in order, each on air for --dwell through one advertiser \
            (one extended advertising set, or the legacy advertiser). --loop (the default) \
            repeats until Ctrl-C; --once stops after one pass. A line (--json: a JSON object) is \
            printed when each beacon goes on air; with -i virtual, the air log too.

            Profiles with issues: every issue printed, exit 65, no adapter opened. SIGINT and \
            SIGTERM stop cleanly (exit 0); SIGHUP reloads the files.
            """
    )

    @Argument(help: ArgumentHelp("Profile files (YAML or JSON).", valueName: "profile"))
    var files: [String]

    @Option(help: ArgumentHelp("How long each beacon stays on air: 2s, 500ms, or seconds.", valueName: "duration"))
    var dwell: DurationArgument

    @Flag(help: "Repeat until stopped (the default).")
    var loop = false

    @Flag(help: "Stop after one pass through the beacons.")
    var once = false

    @Flag(help: "Shuffle the order (once per run).")
    var shuffle = false

    @OptionGroup var controller: ControllerOptions

    @Flag(help: "One JSON object per event and line.")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one profile file") }
        if loop && once { throw ValidationError("--loop and --once exclude each other") }
        if dwell.duration < .milliseconds(20) { throw ValidationError("--dwell must be at least 20ms (got \(dwell))") }
    }

    mutating func run() async throws {
        let files = self.files
        let shuffle = self.shuffle
        let order: @Sendable ([BeaconProfile]) -> [BeaconProfile] = { shuffle ? $0.shuffled() : $0 }
        let beacons = order(try ProfileFiles.loadBeacons(files).get())
        guard !beacons.isEmpty else { throw CommandFailure.exit("the profile files define no beacons") }
        let connections = try AdapterChoice.openAll(controller, inputs: files).get()
        // One set (or the legacy advertiser) rotating with turns of the dwell time.
        let planner = FleetPlanner(slotDuration: dwell.duration, maximumSets: 1)
        // One pass: as many turns as beacons. Several adapters share the beacons, so a pass is
        // as long as the longest share.
        let perAdapter = (beacons.count + connections.count - 1) / connections.count
        let duration: Duration? = once ? dwell.duration * perAdapter : nil
        try await AdvertiseCommand.advertise(
            beacons, on: connections, planner: planner, style: json ? .json : .lines, planOnly: false, json: json,
            duration: duration, showsOffAir: false,
            reload: { ProfileFiles.loadBeacons(files).success.map(order) })
    }
}
