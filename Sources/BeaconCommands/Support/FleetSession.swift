// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import ArgumentParser
import BeaconAdapters
import BeaconConsole
import BeaconEmulator
import BeaconJSON
import BeaconProfiles
import Synchronization
import VirtualController

/// One `advertise`, `cycle`, `play` or `walk` run, presented: the library's ``FleetRun`` opens
/// the adapters, plans, starts, reloads and tears down; this shows its plan and progress, maps
/// SIGINT/SIGTERM (``StopSignals``) and a closed standard output to a stop, SIGHUP to a reload of
/// the profile files (issues reported, the run going on with the beacons it has), and the outcome
/// to the exit status: 0 when the teardown succeeded, else 1 with the adapter and the beacons
/// that may still be on air.
struct FleetSession {
    var controller: ControllerOptions
    /// The command's input files, which `--btsnoop` must not overwrite.
    var inputs: [String]
    var planner: FleetPlanner
    var style: (_ virtual: Bool) -> RunStatusBoard.Style
    var showsOffAir: Bool
    var planOnly: Bool
    /// The per-beacon table in the plan even for a large fleet.
    var verbose: Bool
    var json: Bool
    /// How long to run, from when the beacons are on air (nil: until stopped).
    var duration: (_ adapters: Int) -> Duration?
    /// Reads the profile files again for SIGHUP (issues already printed when it returns nil);
    /// nil: SIGHUP is ignored (a scenario or a walk owns the beacons).
    var reload: (@Sendable () -> [BeaconProfile]?)?
    /// Runs once the beacons are on air, next to the fleet (a scenario, a walk), and may update
    /// it and stop it; cancelled when the run ends.
    var conduct: (@Sendable (RunningFleet, RunStatusBoard) async -> Void)? = nil
    /// Runs after the probe and the plan, before anything goes on air: throwing ends the run
    /// with nothing advertised (a scenario checks every state it will put on air).
    var preflight: (@Sendable (RunningFleet) async throws(ExitCode) -> Void)? = nil
    /// Which events the live view shows (nil: all); a walk's text view leaves out the on/off
    /// air lines of its ten data changes a second.
    var shows: (@Sendable (EmulatorEvent) -> Bool)? = nil
    /// `--air-log`: where the virtual controllers' air log goes (nil: nowhere).
    var airLog: AirLogOptions? = nil
    /// With `planOnly`: given the plan once it is printed (`advertise --plan --map`).
    var planned: ((FleetPlan) throws(ExitCode) -> Void)? = nil
    /// Watches the running fleet and its board (`--web`'s page), without changing either;
    /// cancelled when the run ends.
    var watch: Watch? = nil
    typealias Watch = @Sendable (RunningFleet, RunStatusBoard) -> Task<Void, Never>

    func run(_ beacons: [BeaconProfile]) async throws(ExitCode) {
        // A file that cannot be written is refused before any controller is opened.
        let sink = try airLog?.open(inputs: inputs)
        let (specs, opening) = try AdapterChoice.opening(controller, inputs: inputs, advertising: true).get()
        let style = self.style(specs.contains { if case .virtual = $0 { true } else { false } })
        let board = RunStatusBoard.onTerminal(style: style, showsOffAir: showsOffAir)
        let followers = Mutex<[AirLogFollower]>([])
        let shows = self.shows
        let run = FleetRun(beacons: beacons, on: specs, opening: opening, planner: planner) { event in
            // The air log up to the teardown first, so the teardown's line is the last word.
            if case .stopped = event { for f in followers.withLock({ $0 }) { f.drain() } }
            if shows?(event) ?? true { board.record(event) }
        }
        defer { run.close() }
        let notes = Mutex<RunStatusBoard?>(nil)
        let say: @Sendable (String) -> Void = { message in
            if let board = notes.withLock({ $0 }) { board.note(message) } else { LineOutput.err(message) }
        }
        // In place before an adapter is opened: a signal during start-up undoes whatever was sent.
        let signals = StopSignals(hangup: { [reload] in Self.hangUp(run, reload: reload, say: say) })
        defer { signals.cancel() }
        signals.onStop { number in
            // Output nobody reads must not hold the stop up.
            LineOutput.stopRequested()
            say("\(StopSignals.name(number)): stopping (again to quit at once)")
            run.requestStop()
        }
        LineOutput.onClosedOutput { run.requestStop() }

        let plan: FleetPlan
        do throws(FleetRunError) {
            guard let planned = try await run.prepare() else { return }  // stopped before anything was opened
            plan = planned
        } catch {
            throw CommandFailure.exit("\(error)")
        }
        let json = self.json
        let verbose = self.verbose
        if planOnly {
            if json { LineOutput.out(PlanReport.json(plan).text) } else { for line in PlanReport.summary(plan, verbose: verbose) { LineOutput.out(line) } }
            try planned?(plan)
            return
        }
        if let sink {
            followers.withLock { $0 = run.connections.compactMap { c in c.virtual.map { AirLogLines.follower($0, adapter: c.adapterName.text, json: json, sink: sink) } } }
        }
        if let preflight, let fleet = run.fleet { try await preflight(fleet) }
        // Stopped while planning (a large fleet takes seconds): the start below sends nothing and
        // ends at once; the live view need not be laid out for it.
        if !run.isStopRequested { board.reset(plan) }
        notes.withLock { $0 = board }
        Self.show(plan, board: board, json: json, verbose: verbose)
        let redrawing = board.redrawing()
        let watching = run.fleet.flatMap { fleet in watch?(fleet, board) }
        let conducted = conduct != nil
        let following = followers.withLock { $0 }.map { $0.following() }
        let plans = Task {
            // Each reload (or a scenario's or a walk's update) that changes the plan: show it,
            // and give the table its rows.
            var last = plan
            for await plan in run.plans {
                // A scenario or a walk updates often: the plan is shown again only when it
                // really changes (beacons placed, removed or moved), not for every new major or
                // measured power, and as one line.
                if conducted, plan.hasSameLayout(as: last) { continue }
                last = plan
                board.reset(plan)
                // In the live view the rows show a scenario's or a walk's new plan.
                if conducted, board.style == .table { continue }
                Self.show(plan, board: board, json: json, verbose: verbose, live: true, brief: conducted)
            }
        }
        do throws(FleetRunError) { try await run.start() } catch {
            redrawing?.cancel()
            watching?.cancel()
            board.finishView()
            for task in following { task.cancel() }
            throw CommandFailure.exit("\(error)")
        }
        let conducting = conduct.flatMap { conduct in run.fleet.map { fleet in Task { await conduct(fleet, board) } } }
        let outcome = await run.run(for: duration(run.connections.count))
        conducting?.cancel()
        plans.cancel()
        redrawing?.cancel()
        watching?.cancel()
        for task in following { task.cancel() }
        for follower in followers.withLock({ $0 }) { follower.drain() }
        board.finishView()
        try Self.finish(outcome)
    }

    /// SIGHUP: reloads the profile files and carries the beacons if they changed. With nothing to
    /// reload (a scenario or a walk owns the beacons), or with the terminal gone, a hangup stops
    /// the run cleanly, as SIGINT does.
    static func hangUp(_ run: FleetRun, reload: (@Sendable () -> [BeaconProfile]?)?, say: @escaping @Sendable (String) -> Void) {
        guard let reload, !TerminalHangup.hungUp else {
            say(TerminalHangup.message)
            run.requestStop()
            return
        }
        say("SIGHUP: reloading the profile files")
        guard let beacons = reload() else {
            say("the profile files have issues (above); still advertising the beacons from before")
            return
        }
        let generation: Int?
        switch run.reload(beacons) {
        case .unchanged, .stopping:
            say("the beacons are unchanged")
            return
        case .beforeStart: generation = nil
        case .posted(let g): generation = g
        }
        say("the beacons changed: applying the difference, now \(Plural.of(beacons.count, "beacon"))")
        guard let generation else { return }
        Task {
            switch await run.settled(generation) {
            case .applied: break
            case .failed(let why): say("reload not applied, the beacons from before stay on air: \(CommandLineTerms.text(why))")
            case .ended: break
            }
        }
    }

    /// The plan's summary on standard error (and a JSON line with --json).
    /// `live`: the live view is up, so the lines go to its messages.
    /// `brief`: only the plan's first line (a scenario's or a walk's change of plan).
    static func show(_ plan: FleetPlan, board: RunStatusBoard, json: Bool, verbose: Bool, live: Bool = false, brief: Bool = false) {
        for line in PlanReport.summary(plan, verbose: verbose).prefix(brief ? 1 : .max) { if live && board.style == .table { board.message(line) } else { Log.notice("\(line)") } }
        if json {
            LineOutput.out(RunEventObject(time: RunStatusBoard.round(board.elapsed), .plan(PlanReport.json(plan))).json.text)
        }
    }

    /// The last word: exit 0 only when nothing failed and nothing of ours may be on air.
    static func finish(_ outcome: FleetOutcome) throws(ExitCode) {
        // Clean: each adapter's "advertising stopped" line (the board's, from its stopped
        // event) has said it already; once is enough.
        if outcome.isClean { return }
        throw CommandFailure.exit(outcome.termedText)
    }
}
