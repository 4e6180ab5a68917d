// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCITransport
import Synchronization

/// What the signal handlers ask of a running session: stop, or go on with reloaded beacons.
final class RunControl: Sendable {
    struct State: Sendable {
        var task: Task<Void, any Error>?
        var stopping = false
        var beacons: [BeaconProfile]
        var reload: [BeaconProfile]?
    }

    private let state: Mutex<State>

    init(beacons: [BeaconProfile]) { state = Mutex(State(beacons: beacons)) }

    /// Registers the run now under way; `false` if a stop came first (the caller cancels it).
    func begin(_ task: Task<Void, any Error>, beacons: [BeaconProfile]) -> Bool {
        state.withLock { s in
            s.task = task
            s.beacons = beacons
            return !s.stopping
        }
    }

    /// Stops for good: the run is cancelled, so its teardown runs.
    func stop() {
        let task = state.withLock { s in
            s.stopping = true
            return s.task
        }
        task?.cancel()
    }

    /// Asks to go on with `beacons`; `false` when they are what is already on air.
    func reload(_ beacons: [BeaconProfile]) -> Bool {
        let task: Task<Void, any Error>? = state.withLock { s in
            guard !s.stopping, beacons != (s.reload ?? s.beacons) else { return nil }
            s.reload = beacons
            return s.task
        }
        guard let task else { return false }
        task.cancel()
        return true
    }

    /// Whether a reload (and no stop) is pending: the ending run then leaves its beacons on air
    /// for the next one to change only what differs.
    var reloadPending: Bool { state.withLock { !$0.stopping && $0.reload != nil } }

    /// The beacons to go on with, if a reload (and no stop) is pending.
    func takeReload() -> [BeaconProfile]? {
        state.withLock { s in
            defer { s.reload = nil }
            return s.stopping ? nil : s.reload
        }
    }
}

/// One `advertise` or `cycle` run, from the first plan to the last teardown: runs the fleet until
/// the duration passes or SIGINT/SIGTERM arrives (exit 0 after the teardown), shows its progress,
/// and on SIGHUP reloads the profile files.
///
/// A reload whose beacons differ applies only the difference: the current run ends without its
/// teardown, the fleet is planned again on the controllers as probed (no new probe, which could
/// reset them), and each adapter gets just the commands from what is on air to the new plan's
/// first slot (`AdvertisingProgram.steps(from:to:extended:)`): unchanged beacons stay on air
/// untouched, changed ones get new data (or address/parameters while briefly disabled), removed
/// ones are disabled and their sets removed, new ones are added. The duration, if any, still
/// counts from the first start. Profile files with issues on reload are reported and the run
/// goes on with the beacons it has.
struct FleetSession {
    var fleet: Fleet
    var board: RunStatusBoard
    var followers: [AirLogFollower]
    var duration: Duration?
    /// Reads the profile files again for SIGHUP (issues already printed when it returns nil).
    var reload: @Sendable () -> [BeaconProfile]?
    /// Shows a plan (the summary on standard error, or a JSON line).
    var showPlan: @Sendable (FleetPlan) -> Void

    /// Runs until done; returns normally after a clean stop, throws the exit status otherwise.
    func run(beacons: [BeaconProfile], plan: FleetPlan, runners: [AdapterRunner]) async throws(ExitCode) {
        let control = RunControl(beacons: beacons)
        let board = self.board
        let reload = self.reload
        let trap = SignalTrap(
            onStop: { number in
                board.note("\(SignalTrap.name(number)): stopping (again to quit at once)")
                control.stop()
            },
            onReload: {
                board.note("SIGHUP: reloading the profile files")
                guard let beacons = reload() else {
                    board.note("the profile files have issues (above); still advertising the beacons from before")
                    return
                }
                if control.reload(beacons) {
                    board.note("the beacons changed: applying the difference, now \(beacons.count) \(beacons.count == 1 ? "beacon" : "beacons")")
                } else {
                    board.note("the beacons are unchanged")
                }
            })
        defer { trap.cancel() }

        board.reset(plan)
        let redrawing = board.redrawing()
        let following = followers.map { $0.following() }
        let deadline = duration.map { ContinuousClock.now + $0 }
        var runners = runners
        var current = beacons
        var failure: String?
        var onAir: [String: [UInt8: AdvertisingSetConfiguration]] = [:]
        while true {
            let remaining = deadline.map { $0 - ContinuousClock.now }
            if let remaining, remaining <= .zero { break }
            let running = runners
            let resume = onAir
            let task = Task {
                try await Fleet.run(running, duration: remaining, resumingFrom: resume, keepOnAir: { control.reloadPending })
            }
            if !control.begin(task, beacons: current) { task.cancel() }
            if case .failure(let error) = await task.result {
                failure = "\(error)"
                break
            }
            guard let next = control.takeReload() else { break }
            onAir = Dictionary(uniqueKeysWithValues: runners.map { ($0.plan.capabilities.adapter, $0.onAir) })
            let (plan, newRunners) = fleet.replan(next)
            // An adapter left without beacons by the new plan takes its old ones off air.
            for old in runners where !newRunners.contains(where: { $0.plan.capabilities.adapter == old.plan.capabilities.adapter }) {
                await old.stop()
            }
            runners = newRunners
            current = next
            board.reset(plan)
            showPlan(plan)
        }
        // A stop that raced a reload: whatever is still on air comes off now.
        for r in runners where !r.onAir.isEmpty { await r.stop() }
        redrawing?.cancel()
        for task in following { task.cancel() }
        for follower in followers { follower.drain() }
        if board.style == .table {
            board.redraw()
            LineOutput.out("advertising stopped (advertising off, sets removed)")
        }
        if let failure { throw CommandFailure.exit(failure) }
    }
}
