// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import BeaconProfiles
import HCITransport
import Synchronization

/// What the signal handlers and a closed standard output ask of a run, whatever stage it is in:
/// before the adapters are open, while probing, or on air. The fleet itself (``RunningFleet``)
/// owns what is on air; this only forwards stops and reloads to it, or keeps them until it exists.
final class RunControl: Sendable {
    private struct State {
        var fleet: RunningFleet?
        var stopped = false
        /// The beacons last asked for (by the start or a reload), to tell an unchanged reload.
        var requested: [BeaconProfile]
    }

    private let state: Mutex<State>

    init(beacons: [BeaconProfile]) { state = Mutex(State(requested: beacons)) }

    var stopRequested: Bool { state.withLock { $0.stopped } }

    /// The fleet from now on gets the stops and reloads; a stop that came first reaches it now.
    func attach(_ fleet: RunningFleet) {
        let stopped = state.withLock { s in
            s.fleet = fleet
            return s.stopped
        }
        if stopped { fleet.requestStop() }
    }

    /// Stops for good (the teardown runs). Safe from any thread.
    func stop() {
        let fleet = state.withLock { s in
            s.stopped = true
            return s.fleet
        }
        fleet?.requestStop()
    }

    /// Goes on with `beacons`: returns the update's generation, or nil when they are what was
    /// last asked for (or the run is stopping).
    func reload(_ beacons: [BeaconProfile]) -> (fleet: RunningFleet?, generation: Int)? {
        let fleet: RunningFleet?? = state.withLock { s in
            guard !s.stopped, beacons != s.requested else { return .none }
            s.requested = beacons
            return .some(s.fleet)
        }
        guard case .some(let f) = fleet else { return nil }
        guard let f else { return (nil, 0) }
        return (f, f.update(beacons))
    }

    /// The beacons to start with (a reload before the start wins).
    var beacons: [BeaconProfile] { state.withLock { $0.requested } }
}

/// One `advertise` or `cycle` run, from the first signal handler to the last teardown: runs the
/// fleet until the duration passes, SIGINT/SIGTERM arrives, or standard output is closed (each a
/// clean stop: exit 0 when the teardown succeeded), shows its progress, and on SIGHUP reloads the
/// profile files.
///
/// Signal handling is in place before an adapter is opened, so a signal during start-up undoes
/// whatever was sent (a SIGHUP then is applied once the beacons are on air). A reload whose
/// beacons differ goes to ``RunningFleet/update(_:)``: only the difference is sent; profile files
/// with issues on reload are reported and the run goes on with the beacons it has. When any
/// teardown command fails, the output names the adapter and the beacons that may still be on
/// air, and the exit status is 1.
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
        let control = RunControl(beacons: beacons)
        let notes = Mutex<RunStatusBoard?>(nil)
        let say: @Sendable (String) -> Void = { message in
            if let board = notes.withLock({ $0 }) { board.note(message) } else { LineOutput.err(message) }
        }
        let reload = self.reload
        let trap = SignalTrap(
            onStop: { number in
                say("\(SignalTrap.name(number)): stopping (again to quit at once)")
                control.stop()
            },
            onReload: {
                // Nothing to reload (a scenario or a walk owns the beacons), or the terminal is
                // gone: a hangup stops the run cleanly, as on SIGINT.
                guard let reload, !SignalTrap.terminalHungUp else {
                    say(SignalTrap.hangupMessage)
                    control.stop()
                    return
                }
                say("SIGHUP: reloading the profile files")
                guard let beacons = reload() else {
                    say("the profile files have issues (above); still advertising the beacons from before")
                    return
                }
                guard let (fleet, generation) = control.reload(beacons) else {
                    say("the beacons are unchanged")
                    return
                }
                say("the beacons changed: applying the difference, now \(Plural.of(beacons.count, "beacon"))")
                guard let fleet else { return }
                Task {
                    switch await fleet.settled(generation) {
                    case .applied: break
                    case .failed(let why): say("reload not applied, the beacons from before stay on air: \(why)")
                    case .ended: break
                    }
                }
            })
        defer { trap.cancel() }
        LineOutput.onClosedOutput { control.stop() }

        let json = self.json
        let verbose = self.verbose
        let shows = self.shows
        // A file that cannot be written is refused before any controller is opened.
        let sink = try airLog?.open(inputs: inputs)
        let connections = try AdapterChoice.openAll(controller, inputs: inputs, advertising: true).get()
        defer { for c in connections { c.close() } }
        AirPlacement.place(beacons, on: connections)
        let style = self.style(connections.contains { $0.virtual != nil })
        let board = RunStatusBoard(style: style, showsOffAir: showsOffAir, colour: LiveOutput.colour)
        let followers = sink.map { sink in
            connections.compactMap { c in c.virtual.map { AirLogFollower(controller: $0, adapter: c.adapterName, json: json, sink: sink) } }
        } ?? []
        let fleet = RunningFleet(connections: connections, planner: planner) { event in
            // The air log up to the teardown first, so the teardown's line is the last word.
            if case .stopped = event { for f in followers { f.drain() } }
            if shows?(event) ?? true { board.record(event) }
        }
        control.attach(fleet)

        if planOnly {
            let plan: FleetPlan
            do throws(AdapterError) { plan = try await fleet.plan(control.beacons) } catch { throw CommandFailure.exit("\(error)") }
            if json { LineOutput.out(PlanReport.json(plan).text) } else { for line in PlanReport.summary(plan, verbose: verbose) { LineOutput.out(line) } }
            try planned?(plan)
            return
        }

        let plan: FleetPlan
        do throws(AdapterError) { plan = try await fleet.plan(control.beacons) } catch { throw CommandFailure.exit("\(error)") }
        if let preflight { try await preflight(fleet) }
        // Stopped while planning (a large fleet takes seconds): the start below sends nothing and
        // ends at once; the live view need not be laid out for it.
        if !control.stopRequested { board.reset(plan) }
        notes.withLock { $0 = board }
        Self.show(plan, board: board, json: json, verbose: verbose)
        let redrawing = board.redrawing()
        let watching = watch?(fleet, board)
        let conducted = conduct != nil
        let following = followers.map { $0.following() }
        let plans = Task {
            // Each applied reload changes the plan: show it, and give the table its rows.
            var shown = 1
            var last = plan
            for await event in fleet.events {
                // TLM bursts apply new data, not a new plan: only requested updates are shown.
                let requested = fleet.requestGeneration
                guard case .applied(let generation, _) = event, generation >= requested, requested > shown,
                      let plan = fleet.currentPlan else { continue }
                shown = requested
                AirPlacement.place(control.beacons, on: connections)
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
        do throws(AdapterError) { try await fleet.start(control.beacons) } catch {
            redrawing?.cancel()
            watching?.cancel()
            board.finishView()
            for task in following { task.cancel() }
            throw CommandFailure.exit("\(error)")
        }
        let conducting = conduct.map { conduct in Task { await conduct(fleet, board) } }
        let outcome = await fleet.run(for: duration(connections.count))
        conducting?.cancel()
        plans.cancel()
        redrawing?.cancel()
        watching?.cancel()
        for task in following { task.cancel() }
        for follower in followers { follower.drain() }
        board.finishView()
        try Self.finish(outcome)
    }

    /// The plan's summary on standard error (and a JSON line with --json).
    /// `live`: the live view is up, so the lines go to its messages.
    /// `brief`: only the plan's first line (a scenario's or a walk's change of plan).
    static func show(_ plan: FleetPlan, board: RunStatusBoard, json: Bool, verbose: Bool, live: Bool = false, brief: Bool = false) {
        for line in PlanReport.summary(plan, verbose: verbose).prefix(brief ? 1 : .max) { if live && board.style == .table { board.message(line) } else { Log.notice("\(line)") } }
        if json {
            LineOutput.out(EventObject.object(time: RunStatusBoard.round(board.elapsed), event: "plan", [("plan", PlanReport.json(plan))]).text)
        }
    }

    /// The last word: exit 0 only when nothing failed and nothing of ours may be on air.
    static func finish(_ outcome: FleetOutcome) throws(ExitCode) {
        let left = outcome.leftOnAir
        // Clean: each adapter's "advertising stopped" line (the board's, from its stopped
        // event) has said it already; once is enough.
        if outcome.isClean { return }
        var message = outcome.failure ?? "the teardown failed"
        for l in left {
            let what = l.beacons.isEmpty ? "its advertising" : l.beacons.joined(separator: ", ")
            message += ". The teardown on \(l.adapter) failed, so \(what) may still be on air: run beacon stop -i \(l.adapter), or unplug the adapter"
        }
        throw CommandFailure.exit(message)
    }
}
