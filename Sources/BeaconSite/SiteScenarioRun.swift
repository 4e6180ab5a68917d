// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconMQTT
import BeaconProfiles
import HCI
import BeaconScenarios
import Synchronization

/// `beacon play SCENARIO --site SITE`: a scenario played across a site. The site file gives the
/// broker and the radios; the scenario gives the beacons. Each step's beacons become the site's
/// beacons through the controller's `SiteController.reload(_:)`, so each step publishes only the
/// desired fleets it changes, and each beacon is put on air by the agent of the radio nearest it.
/// When the play ends the site keeps the last step on air (as when `beacon site` stops).
public final class SiteScenarioRun: Sendable {
    /// What the run reports: the controller's events and the player's.
    public enum Event: Sendable {
        case site(SiteController.Event)
        case scenario(ScenarioPlayer.Event)
    }

    public let controller: SiteController
    private let stage: Stage
    private let player: ScenarioPlayer
    private let report: @Sendable (Event) -> Void
    private let playing = Mutex<Task<Void, Never>?>(nil)
    private let stopping = Mutex(false)

    /// - Parameters:
    ///   - site: the site file's site (its beacons are not played: the scenario's are).
    ///   - player: the scenario, its window and speed.
    ///   - client: the controller's client (`SiteController.lastWill(topics:)` as its Last Will), not yet connected.
    ///   - report: called with each of the controller's and the player's events, as they come.
    public init(site: Site, player: ScenarioPlayer, client: MQTTClient, report: @escaping @Sendable (Event) -> Void) {
        var first = site
        first.beacons = player.initialBeacons
        let stage = Stage(site: site)
        self.stage = stage
        self.player = player
        self.report = report
        controller = SiteController(site: first, client: client, report: { event in
            stage.observe(event)
            report(.site(event))
        })
        stage.controller.withLock { $0 = controller }
    }

    /// Why a scenario cannot be played on a site: its beacons without a position (a site places
    /// each beacon by where it is), one line each; empty when it can.
    public static func problems(_ timeline: ScenarioTimeline) -> [String] {
        let scenario = timeline.scenario
        return scenario.fleet.beacons.filter { $0.position == nil }.map {
            "\(scenario.fleet.file): beacon \($0.name) has no position; on a site each beacon goes to the radio nearest its position"
        }
    }

    /// Connects, publishes the scenario's first beacons, plays the scenario once the controller
    /// is ready, and returns when the play ends or ``requestStop()`` is called.
    /// - Throws: the broker's answer when the first connection or a subscription fails.
    public func run() async throws(MQTTError) {
        let controller = self.controller
        let stage = self.stage
        let serving = Task { () -> MQTTError? in
            defer { stage.controllerEnded() }
            do throws(MQTTError) { try await controller.run() } catch { return error }
            return nil
        }
        if await stage.waitForReady(), !stopping.withLock({ $0 }) {
            let player = self.player
            let report = self.report
            let task = Task { await player.play(on: stage, from: .now) { report(.scenario($0)) } }
            playing.withLock { $0 = task }
            if stopping.withLock({ $0 }) { task.cancel() }
            await task.value
        }
        controller.requestStop()
        if let error = await serving.value { throw error }
    }

    /// Stops the play; the site keeps on air what the last step put there.
    public func requestStop() {
        stopping.withLock { $0 = true }
        playing.withLock { $0?.cancel() }
        controller.requestStop()
    }

    /// The site as a `ScenarioStage` (BeaconScenarios' seam, which knows no site): an update is the site with the step's beacons, settled
    /// once the controller reports each of them on air (beacons no radio can carry aside; a
    /// beacon taken off is not waited for), or failed when an agent refuses a desired fleet.
    final class Stage: ScenarioStage {
        let site: Site
        let controller = Mutex<SiteController?>(nil)
        private let state = Mutex(State())

        private struct State {
            var generation = 1
            var wanted: Set<String>?
            var onAir: Set<String> = []
            var unplaced: Set<String> = []
            var failure: String?
            var waiters: [(generation: Int, continuation: CheckedContinuation<RunningFleet.UpdateOutcome, Never>)] = []
            var ready: [CheckedContinuation<Bool, Never>] = []
            var isReady = false
            var ended = false
        }

        init(site: Site) { self.site = site }

        func update(_ beacons: [BeaconProfile]) -> Int {
            let generation = state.withLock { s in
                s.generation += 1
                s.wanted = Set(beacons.map(SiteBeaconID.of))
                s.failure = nil
                return s.generation
            }
            var edited = site
            edited.beacons = beacons
            // Refused only for a new site name or discovery prefix, which the stage never changes.
            _ = controller.withLock { $0 }?.reload(edited)
            resumeSettled()
            return generation
        }

        func settled(_ generation: Int) async -> RunningFleet.UpdateOutcome {
            await withCheckedContinuation { c in
                state.withLock { $0.waiters.append((generation, c)) }
                resumeSettled()
            }
        }

        /// Follows the controller: which beacons are on air, refusals, readiness.
        func observe(_ event: SiteController.Event) {
            let readyNow: [CheckedContinuation<Bool, Never>] = state.withLock { s in
                switch event {
                case .ready:
                    s.isReady = true
                    defer { s.ready = [] }
                    return s.ready
                case .beacon(let id, _, let onAir, _, _, _, _):
                    if onAir { s.onAir.insert(id); s.unplaced.remove(id) } else { s.onAir.remove(id) }
                case .unplaced(let id, _, _):
                    s.unplaced.insert(id)
                case .rejected(let radio, let rejection):
                    s.failure = "\(radio) refused its desired fleet: \(rejection.field): \(rejection.reason)"
                default:
                    break
                }
                return []
            }
            for c in readyNow { c.resume(returning: true) }
            resumeSettled()
        }

        /// True once the controller is ready; false when it ended first.
        func waitForReady() async -> Bool {
            await withCheckedContinuation { c in
                let now: Bool? = state.withLock { s in
                    if s.isReady { return true }
                    if s.ended { return false }
                    s.ready.append(c)
                    return nil
                }
                if let now { c.resume(returning: now) }
            }
        }

        func controllerEnded() {
            let (ready, waiters) = state.withLock { s in
                s.ended = true
                defer { s.ready = []; s.waiters = [] }
                return (s.ready, s.waiters)
            }
            for c in ready { c.resume(returning: false) }
            for w in waiters { w.continuation.resume(returning: .ended) }
        }

        /// Resumes the waiters the latest update answers (it replaces every earlier one).
        private func resumeSettled() {
            let due: [(CheckedContinuation<RunningFleet.UpdateOutcome, Never>, RunningFleet.UpdateOutcome)] = state.withLock { s in
                let outcome: RunningFleet.UpdateOutcome
                if s.ended {
                    outcome = .ended
                } else if let failure = s.failure {
                    outcome = .failed(TermedText(failure))
                } else if (s.wanted ?? []).subtracting(s.unplaced).isSubset(of: s.onAir) || s.wanted == nil {
                    outcome = .applied
                } else {
                    return []
                }
                let answered = s.waiters.filter { $0.generation <= s.generation }
                s.waiters.removeAll { $0.generation <= s.generation }
                return answered.map { ($0.continuation, outcome) }
            }
            for (c, outcome) in due { c.resume(returning: outcome) }
        }
    }
}
