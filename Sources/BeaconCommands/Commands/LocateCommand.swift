// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import ArgumentParser
import BeaconCodec
import BeaconMaps
import BeaconPositioning
import BeaconProfiles
import BeaconScenarios
import VirtualController
import BeaconRadio
import BeaconMaps
import BeaconWeb

/// `beacon locate FLEET.yaml`: where is the receiver, from the RSSI of the fleet's beacons.
struct LocateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Estimate a receiver's position from the RSSI of beacons with known positions.",
        discussion: """
            The fleet file gives each beacon's position (position: {x: …, y: …}, metres). The \
            samples are grouped into windows (--window, 1 s); in each window every fleet beacon \
            heard gets its mean RSSI, a distance by log-distance path loss \
            d = 10^((power − rssi) / (10·n)) (n = --path-loss-exponent, default 2; power is the \
            payload's measured power, else the fleet file's), and the position is the weighted \
            least-squares fit of all the distances (Levenberg–Marquardt; --method ls weights \
            them alike, --method circles intersects the circles pair by pair and averages the \
            points, as the seed article does). A window needs three \
            beacons. Each fix comes with the RMS range residual and a 1-sigma error radius from \
            the fit's covariance. docs/POSITIONING.md describes the method and its accuracy.

            One input:
              --live           scan now with the controller -i (as `beacon scan`), for \
            --duration or until Ctrl-C, SIGTERM or SIGHUP (the terminal closed); with --as ios \
            or android the samples are the phone's smoothed RSSI at each ranging update instead \
            of every report
              --trace FILE     JSON Lines as `beacon scan --json` prints them: "report" \
            events, or any line with "time" (seconds), "uuid", "major", "minor", "rssi" and \
            optionally "power"; - reads standard input line by line, each fix printed as its \
            window closes (beacon scan --json | beacon locate FLEET --trace -)
              --capture FILE   a btsnoop, pcap or pcapng capture (- for standard input): the \
            advertising reports (and sniffed advertising PDUs with an RSSI) in it, timed from \
            the first one as --trace is
              --simulate PATH  a simulated walk: square, cross, still, or waypoints \
            "x,y x,y …" (or "x,y;x,y;…", as walk --path); RSSI from the path-loss model plus Gaussian noise (--noise dB, \
            --seed); prints each fix's error against the true position and a summary. \
            With --air (the virtual air's channel model instead of --noise), --as (the \
            phone's smoothing) or PATH random (--walks seeded random walks through the \
            fleet's area), only the summary is printed (BENCHMARKS.md's table)

            Text output: one line per fix. With --json: one object per fix \
            {"time","x","y","error_radius","rms_residual","beacons"} (with "true_x", "true_y", \
            "error" when simulating), and for a simulation a last {"summary":{…}} line. A run \
            that gets no fix at all (no samples, or never three beacons in a window) says why \
            on standard error and exits 65.

            --map FILE (.svg, .html or .png) draws the run when it ends: the fleet's rooms \
            (areas:), the beacons, each one's ranging circle at the last fix, the estimate with \
            its error radius, the trail, and the true position when known (--simulate, --at); \
            docs/TUTORIAL-positioning.md shows the pictures. With --simulate random, --map draws \
            the error distribution instead: the share of fixes within each error, for circles, \
            ls and wls over the same walks (--method picks the summaries printed). With --live, \
            --web [HOST:]PORT serves the same map as a live page, updated at each fix.

            Examples:
              beacon locate profiles/room-2m.yaml --simulate square --seed 1
              beacon locate profiles/room-2m.yaml --simulate still --json
            """
    )

    @Argument(help: ArgumentHelp("A fleet profile whose beacons have positions.", valueName: "fleet.yaml"), completion: .file())
    var fleet: String

    @Option(help: ArgumentHelp("Read samples from a JSON Lines trace (beacon scan --json; - reads standard input).", valueName: "file"), completion: .file())
    var trace: String?

    @Option(help: ArgumentHelp("Read samples from a btsnoop, pcap or pcapng capture (- reads standard input).", valueName: "file"), completion: .file())
    var capture: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulate a walk: square, cross, still, random, or waypoints \"x,y x,y …\" in metres (spaces or semicolons between them, as walk --path).", valueName: "path"))
    var simulate: String?

    @Flag(help: "Scan live with the controller -i.")
    var live = false

    @OptionGroup var listening: ListeningControllerOptions
    var controller: ControllerOptions { listening.controller }

    @Option(parsing: .unconditional, help: Point.argumentHelp)
    var at: Point?

    @Flag(name: .customLong("follow-walker"), help: "With --live -i virtual: the receiver stands where `beacon walk -i virtual` (another process) puts its walker, and moves with it (at --at, default 0,0, until the walker is heard).")
    var followWalker = false

    @OptionGroup var phone: PhoneOptions

    @OptionGroup var air: AirChannelOptions

    @Option(help: ArgumentHelp("With --live: how long to scan: 10s, 500ms, 2m, 1m30s, or seconds (default: until Ctrl-C).", valueName: "duration"))
    var duration: DurationArgument?

    @Option(help: ArgumentHelp("Simulation: RSSI noise standard deviation in dB.", valueName: "dB"))
    var noise: Double = 4

    @Option(help: ArgumentHelp("Simulation: random seed.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("With --simulate random: how many seeded random walks (seeds --seed, --seed + 1, …); only the summary is printed.", valueName: "n"))
    var walks: Int = 1

    @Option(help: ArgumentHelp("Simulation: times to walk the path.", valueName: "n"))
    var laps: Int = 1

    @Option(help: ArgumentHelp("Simulation: walking speed in m/s.", valueName: "m/s"))
    var speed: Double = 0.25

    @Option(name: .customLong("path-loss-exponent"), help: ArgumentHelp("The path-loss exponent n (2 is free space).", valueName: "n"))
    var pathLossExponent: Double = 2

    @Option(name: .customLong("window"), help: ArgumentHelp("How much time of samples goes into each fix: 1s, 500ms, 2s, or seconds.", valueName: "duration"))
    var windowArgument = DurationArgument(argument: "1s")!

    /// The window in seconds.
    var window: Double { windowArgument.duration / .seconds(1) }

    @Option(name: .customLong("method"), help: ArgumentHelp("How ranges become a fix: wls (weighted least squares, the default), ls (least squares) or circles (pairwise circle intersection, the seed article's). With --simulate random, give it more than once for a summary per method over the same walks.", valueName: "method"))
    var methods: [PositioningMethod] = []

    /// The method of a fix (one is given except with --simulate random).
    var method: PositioningMethod { methods.last ?? .weightedLeastSquares }

    @Flag(help: "Print one JSON object per fix.")
    var json = false

    @OptionGroup var mapOptions: MapOptions

    @OptionGroup var webOptions: WebOptions

    func validate() throws {
        if fleet == "-", trace == "-" || capture == "-" {
            throw ValidationError("the fleet file and --trace/--capture cannot both be standard input (-)")
        }
        let inputs = [trace, capture, simulate].compactMap { $0 } + (live ? ["live"] : [])
        guard inputs.count == 1 else {
            throw ValidationError("give exactly one of --live, --trace FILE, --capture FILE or --simulate PATH")
        }
        if !live, controller.adapter != nil || duration != nil {
            throw ValidationError("-i and --duration go with --live")
        }
        if !live, simulate == nil, phone.phone != .raw { throw ValidationError("--as goes with --live or --simulate") }
        try air.check(controller: controller, simulating: simulate != nil)
        guard walks >= 1, walks <= 100_000 else { throw ValidationError("--walks must be 1 to 100000 (got \(walks))") }
        if walks > 1, simulate != "random" { throw ValidationError("--walks goes with --simulate random") }
        if methods.count > 1, simulate != "random" { throw ValidationError("--method goes once, except with --simulate random (a summary per method)") }
        try Point.check(at, controller: controller)
        if followWalker {
            guard live, Point.isVirtual(controller) else { throw ValidationError("--follow-walker moves the receiver on the shared virtual air: it needs --live and -i virtual") }
        }
        guard pathLossExponent > 0, pathLossExponent <= 10 else {
            throw ValidationError("--path-loss-exponent must be above 0 and at most 10 (got \(pathLossExponent))")
        }
        guard noise >= 0, noise.isFinite else { throw ValidationError("--noise must be 0 dB or more (got \(noise))") }
        guard laps >= 1 else { throw ValidationError("--laps must be 1 or more (got \(laps))") }
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be positive (got \(speed))") }
        if mapOptions.map != nil, simulate != nil, simulate != "random", air.isGiven || phone.phone != .raw {
            throw ValidationError("--map draws the fixes of --live, --trace, --capture or --simulate PATH (without --air or --as), or the errors of --simulate random")
        }
        if webOptions.web != nil, !live { throw ValidationError("--web shows a live scan as it goes: it goes with --live") }
        if let simulate, simulate != "random" {
            do { _ = try WalkPath(parsing: simulate) } catch { throw ValidationError("--simulate: \(error)") }
        }
    }

    mutating func run() async throws {
        let loaded: BeaconFleet
        switch ProfileFiles.load(fleet) {
        case .success(let f): loaded = f
        case .failure(let code): throw code
        }
        let anchors = BeaconAnchor.anchors(of: loaded)
        try mapOptions.check(inputs: [fleet, trace, capture].compactMap { $0 })
        guard anchors.count >= 3 else {
            throw CommandFailure.exit("\(fleet.escapingControlCharacters): \(anchors.count) beacon(s) have a position; locating needs at least 3",
                                      code: ExitStatus.dataError)
        }
        let model = PathLossModel(exponent: pathLossExponent)
        // The receiver's height: --at's z, else the fleet's receiver_height (0 by default).
        let height = at.map { $0.z != 0 ? $0.z : loaded.receiverHeight } ?? loaded.receiverHeight
        let receiver = at.map { Point(x: $0.x, y: $0.y, z: height) }
        var output = LocateOutput(json: json)
        if mapOptions.map != nil { output.recorder = FixRecorder() }
        // The fleet's `air:` counts where the options would (the virtual air, or a simulation);
        // its areas are the walls the receiver hears through.
        let channel = air.channel(over: loaded.air, walls: loaded.walls)
        let noisyAir = air.isGiven || loaded.air != nil
        if live {
            let locator = WindowedLocator(anchors: anchors, model: model, window: window, method: method, receiverHeight: height)
            // The receiver stood at --at (unless it followed a walker): the true position.
            let truth = followWalker ? nil : receiver
            let page = PositioningPage(title: mapTitle, plan: .plan(of: loaded, title: mapTitle), anchors: anchors)
            if let truth { page.record(.truePosition(truth, time: 0)) }
            if webOptions.web != nil { output.page = page }
            let heard = try await webOptions.serving(page.changes, { page.snapshot() }) { [output] in
                try await LocateLive.run(controller, inputs: [fleet], locator: locator, phone: phone.scanning(), duration: duration?.duration,
                                         receiver: receiver ?? Point(x: 0, y: 0, z: height), followsWalker: followWalker, channel: channel, output: output)
            }
            try mapOptions.write(LocateMap.scene(fleet: loaded, anchors: anchors, fixes: output.recorder?.fixes.withLock { $0 } ?? [],
                                                 truth: truth.map { point in { _ in point } }, title: mapTitle))
            return try check(samples: heard.samples, fixes: heard.fixes, from: "the scan", anchors: anchors.count)
        }
        if simulate != nil, simulate == "random" || noisyAir || phone.phone != .raw {
            // Through the channel and the phone: BENCHMARKS.md's positioning table.
            var bench = PositioningBenchmark(anchors: anchors, channel: channel, phone: phone.scanning(), method: method)
            bench.window = window
            bench.speed = speed
            bench.receiverHeight = height
            if let simulate, simulate != "random", let path = try? WalkPath(parsing: simulate) { bench.path = path }
            // Each walk is heard once and located by every method asked for (all three for --map).
            let asked = methods.isEmpty ? [method] : methods.reduce(into: [PositioningMethod]()) { if !$0.contains($1) { $0.append($1) } }
            let located = mapOptions.map != nil ? PositioningMethod.allCases : asked
            let errors = bench.errors(walks: walks, seed: seed, methods: located)
            if mapOptions.map != nil {
                let title = "\(FleetWriter.fleetName(forPath: fleet, fallback: "fleet")): position error, \(channel.name) air, \(phone.phone.rawValue) phone"
                try mapOptions.write(ErrorCDFChart(title: title, series: zip(located, errors).compactMap { ErrorCDFChart.Series(name: $0.rawValue, errors: $1) },
                                                   notes: ["\(walks) walks (seeds from \(seed)) through \(fleet), as beacon locate --simulate random"]))
            }
            for method in asked {
                let summary = LocationErrorSummary(errors: errors[located.firstIndex(of: method) ?? 0])
                output.printSummary(summary, noise: channel.shadowingSigma, seed: seed,
                                    context: [("air", channel.name), ("as", phone.phone.rawValue), ("method", method.rawValue), ("walks", "\(walks)")])
                if summary == nil { throw CommandFailure.exit("no fix: no window heard three or more beacons", code: ExitStatus.dataError) }
            }
            return
        }
        if let simulate, let path = try? WalkPath(parsing: simulate) {
            let simulator = WalkSimulator(anchors: anchors, path: path, model: model, noise: noise, speed: speed, laps: laps, seed: seed,
                                          receiverHeight: height)
            let fixes = WindowedLocator.fixes(simulator.samples(), anchors: anchors, model: model, window: window, method: method,
                                              receiverHeight: height)
            for fix in fixes { output.print(fix, truth: simulator.truth(at: fix.time)) }
            output.printSummary(LocationErrorSummary(fixes: fixes, truth: simulator.truth(at:)), noise: noise, seed: seed)
            try mapOptions.write(LocateMap.scene(fleet: loaded, anchors: anchors, fixes: fixes, truth: simulator.truth(at:), title: mapTitle))
            return
        }
        var locator = WindowedLocator(anchors: anchors, model: model, window: window, method: method, receiverHeight: height)
        var truth = TruePositions()
        var samples = 0, fixes = 0
        var drawn: [PositionFix] = []
        func take(_ sample: RSSISample) {
            samples += 1
            for fix in locator.add(sample) {
                fixes += 1
                output.print(fix, truth: nil)
                if mapOptions.map != nil { drawn.append(fix) }
            }
        }
        do {
            if trace == "-" {
                // A pipe: each fix as its window closes, not when the producer ends.
                try LocateInput.forEachStandardInputSample(take)
            } else {
                let (read, traceTruth) = try trace.map(LocateInput.trace(path:)) ?? (LocateInput.captureSamples(path: capture!), TruePositions())
                truth = traceTruth
                read.sorted { $0.time < $1.time }.forEach(take)
            }
        } catch {
            throw CommandFailure.exit("\(error)")
        }
        if let last = locator.finish() {
            fixes += 1
            output.print(last, truth: nil)
            drawn.append(last)
        }
        try check(samples: samples, fixes: fixes, from: InputPath.label(trace ?? capture!), anchors: anchors.count)
        // A trace's true_position lines: the truth on the map.
        try mapOptions.write(LocateMap.scene(fleet: loaded, anchors: anchors, fixes: drawn, truth: truth.function, title: mapTitle))
    }

    /// The map's title: what was located, by which method.
    var mapTitle: String {
        let input = live ? "live scan" + (at.map { " at \($0)" } ?? "") : simulate.map { "simulated walk \($0)" } ?? InputPath.label(trace ?? capture ?? "-")
        return "beacon locate \(fleet) — \(input), method \(method.rawValue)"
    }

    /// A run without a fix fails (exit 65), saying why: no sample at all, or never enough
    /// beacons in one window.
    func check(samples: Int, fixes: Int, from input: String, anchors: Int) throws {
        if samples == 0 {
            let what = live ? "heard no beacon" : "held no samples (beacon scan --json \"report\" lines, or advertising reports in a capture)"
            throw CommandFailure.exit("no fix: \(input) \(what)", code: ExitStatus.dataError)
        }
        if fixes == 0 {
            throw CommandFailure.exit("no fix: no window of \(window) s heard three or more of the fleet's \(anchors) positioned beacons (\(Plural.of(samples, "sample")) read from \(input))",
                                      code: ExitStatus.dataError)
        }
    }
}
