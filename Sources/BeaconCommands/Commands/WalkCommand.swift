// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconConsole
import BeaconEmulator
import BeaconPositioning
import BeaconProfiles
import BeaconScanner
import BeaconScenarios
import BeaconWeb
import Foundation
import Synchronization

/// `beacon walk FLEET.yaml --path …`: a phone next to the emulator experiences a walk through
/// the fleet's room.
struct WalkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walk",
        abstract: "Walk a simulated receiver through a fleet's room, over the air.",
        discussion: """
            The fleet file gives each beacon's position (metres). A simulated walker follows \
            --path at --speed; --rate times a second, every positioned beacon's measured power \
            (the payload's RSSI at 1 m) is set so that a receiver that hears it at \
            --rssi-at-phone estimates the walker's true distance to it: with the distance \
            model d = 10^((power − rssi) / (10·n)) (--model pathloss, n = \
            --path-loss-exponent, default 2, as beacon locate), or AltBeacon's curve fit \
            (--model altbeacon). Only what changed is sent (the data of a running advertising \
            set changes in place). With --vary-tx-power, where the controller lets the host \
            choose the TX power (extended advertising), the TX power drops with distance too, \
            in 3 dB steps, so the RSSI itself falls as the walker goes away; the measured power \
            accounts for it. docs/TUTORIAL-positioning.md states the model and its limits.

            Calibrate --rssi-at-phone by measuring the RSSI at which the phone (or beacon scan \
            on a second adapter) hears the emulator where the phone lies.

            Output: a line per second with the walker's position and each beacon's distance \
            and measured power (--json: a "walker" object per update, with the walk time, its \
            Unix time and the same per beacon), and a warning whenever an update is posted \
            before the one before it was applied. On a terminal, a live view shows the beacons, \
            the walker's position and the updates (late ones in its last line) instead. \
            SIGINT, SIGTERM or SIGHUP (the terminal closed; a walk has nothing to reload) stop \
            it, with the same teardown as advertise.

            --web [HOST:]PORT serves a live page: the map with each beacon's ranging circle, \
            the estimate a receiver makes there with its error radius and the walker's true \
            position, as the walk goes; --map FILE draws the walk when it ends.

            Examples:
              beacon walk profiles/room-2m.yaml -i virtual --path square --duration 5s
              beacon walk profiles/room-2m.yaml -i virtual --path cross --duration 3s
              beacon walk profiles/room-2m.yaml -i virtual --path square --duration 3s --web 0
            """
    )

    @Argument(help: ArgumentHelp("A fleet profile whose beacons have positions.", valueName: "fleet.yaml"), completion: .file())
    var fleet: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The walk: waypoints \"x,y x,y …\" in metres (or square, cross, still).", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("Walking speed: 1m/s, 0.5 (m/s).", valueName: "speed"))
    var speed: String = "1m/s"

    @Flag(help: "Walk the path over and over (back to its start in a straight line) until stopped or --duration.")
    var loop = false

    @Option(name: .customLong("rssi-at-phone"), parsing: .unconditional, help: ArgumentHelp("The RSSI at which the phone hears the emulator, dBm (-127 to -1).", valueName: "dBm"))
    var rssiAtPhone: Double = -45

    @Option(help: ArgumentHelp("The receiver's distance model: pathloss or altbeacon.", valueName: "model"))
    var model: ScanDistanceModel = .pathloss

    @Option(name: .customLong("path-loss-exponent"), help: ArgumentHelp("The path-loss exponent n for --model pathloss, above 0 and at most 10.", valueName: "n"))
    var pathLossExponent: Double = 2

    @Option(help: ArgumentHelp("Updates per second, 1 to 50.", valueName: "hz"))
    var rate: Double = 10

    @Flag(name: .customLong("vary-tx-power"), help: "Lower the TX power with distance too, where the controller lets the host choose it.")
    var varyTxPower = false

    @Option(help: ArgumentHelp("How long to walk: 30s, 2m, standing at the last waypoint once there (default: the path once, or until Ctrl-C with --loop).", valueName: "duration"))
    var duration: DurationArgument?

    @OptionGroup var controller: ControllerOptions

    @OptionGroup var airLog: AirLogOptions

    @Flag(help: "Use legacy advertising even where extended advertising exists.")
    var legacy = false

    @Flag(help: "One JSON object per line: the fleet's events and the walker's positions.")
    var json = false

    @OptionGroup var mapOptions: MapOptions

    @OptionGroup var webOptions: WebOptions

    func validate() throws {
        do { _ = try WalkPath(parsing: path) } catch { throw ValidationError("--path: \(error)") }
        guard let s = Self.metresPerSecond(speed) else {
            throw ValidationError("--speed must be a speed above 0 and at most 100 m/s, such as 1m/s or 0.5 (got '\(speed)')")
        }
        _ = s
        guard rssiAtPhone >= -127, rssiAtPhone <= -1 else { throw ValidationError("--rssi-at-phone must be from -127 to -1 dBm (got \(rssiAtPhone))") }
        guard pathLossExponent > 0, pathLossExponent <= 10 else {
            throw ValidationError("--path-loss-exponent must be above 0 and at most 10 (got \(pathLossExponent))")
        }
        guard rate >= 1, rate <= 50 else { throw ValidationError("--rate must be from 1 to 50 updates per second (got \(rate))") }
    }

    /// `1m/s`, `1 m/s`, `0.5`.
    static func metresPerSecond(_ text: String) -> Double? {
        var t = Substring(text.lowercased())
        if t.hasSuffix("m/s") { t = t.dropLast(3) }
        guard let v = Double(t.trimmingCharacters(in: .whitespaces)), v > 0, v <= 100 else { return nil }
        return v
    }

    var distanceModel: DistanceModel { model == .altbeacon ? .altBeacon : .pathLoss(exponent: pathLossExponent) }

    mutating func run() async throws {
        let loaded: BeaconFleet
        switch ProfileFiles.load(fleet) {
        case .success(let f): loaded = f
        case .failure(let code): throw code
        }
        let positioned = loaded.beacons.filter { $0.position != nil }.count
        guard positioned > 0 else {
            throw CommandFailure.exit("\(fleet.escapingControlCharacters): no beacon has a position; the walk needs position: {x: …, y: …} on the beacons it moves",
                                      code: ExitStatus.dataError)
        }
        try mapOptions.check(inputs: [fleet])
        let route = WalkRoute(path: try WalkPath(parsing: path), speed: Self.metresPerSecond(speed)!, loops: loop)
        if route.duration == nil, duration == nil { LineOutput.err("walking until Ctrl-C (--loop without --duration)") }
        let walk = {
            var model = WalkModel(fleet: loaded.beacons, route: route, distanceModel: distanceModel, rssiAtPhone: rssiAtPhone)
            model.receiverHeight = loaded.receiverHeight
            return model
        }()
        let (json, rate, vary) = (self.json, self.rate, varyTxPower)
        let seconds = duration.map { $0.duration.seconds }
        if positioned > 16 {
            LineOutput.err("note: \(positioned) positioned beacons; the walk is meant for up to 16 at \(Int(rate)) updates per second")
        }
        let initial = walk.beacons(at: 0).beacons
        let started = Mutex(false)
        let walked = Mutex(0.0)
        // The walker's line each second says what changed: on/off air lines only until the
        // beacons are first on air (generation 1), and errors and the teardown always.
        let quiet: @Sendable (EmulatorEvent) -> Bool = { event in
            switch event {
            case .onAir, .offAir: return !started.withLock { $0 }
            case .applied: started.withLock { $0 = true }; return true
            default: return true
            }
        }
        let style = RunStatusBoard.Style.choose(json: json, airLog: airLog)
        let title = "beacon walk \(fleet) --path \(path)"
        // --web: the page follows the walk (the walker, the estimate there) and the board's beacons.
        let page = PositioningPage(title: title, plan: .plan(of: loaded, title: title), anchors: BeaconAnchor.anchors(of: loaded))
        let showsPage = webOptions.web != nil
        try await webOptions.serving(watch: { server in { _, board in board.onChange { page.changes.changed() }; return server.follow(page.changes) { page.snapshot(beacons: board.webSnapshot(map: "").beacons) } } }) { watch throws(ExitCode) in
            try await FleetSession(
                controller: controller, inputs: [fleet], planner: FleetPlanner(forceLegacy: legacy),
                style: { _ in style },
                showsOffAir: false, planOnly: false, verbose: false, json: json, duration: { _ in nil },
                reload: nil,
                conduct: { fleet, board in
                    var walk = walk
                    if vary {
                        let control = await WalkModel.TxPowerControl.available(on: fleet)
                        if control == nil { board.note("--vary-tx-power: the controller does not let the host choose the TX power (legacy advertising); only the measured power changes") }
                        walk.txPower = control
                    }
                    let output = PlaybackOutput(json: json)
                    let progress = PlaybackProgress(start: output.start)
                    if board.style == .table { board.show { progress.walkHeadline() } }
                    let walking = walk
                    await WalkPlayer(model: walk, rate: rate).walk(on: fleet, from: output.start, duration: seconds) { event in
                        progress.record(event)
                        if case .moved(let time, _, _, _, _) = event {
                            walked.withLock { $0 = time }
                            for e in showsPage ? walking.positioningEvents(at: time) : [] { page.record(e) }
                        }
                        output.show(event, board: board, textEvery: 1)
                        if case .finished = event { fleet.requestStop() }
                    }
                },
                // The live view's rows follow every event; lines and JSON as before.
                shows: style == .lines ? quiet : nil,
                airLog: airLog,
                watch: watch
            ).run(initial)
        }
        try mapOptions.write(WalkMap.scene(fleet: loaded, walk: walk, walked: walked.withLock { $0 }, title: title))
    }
}
