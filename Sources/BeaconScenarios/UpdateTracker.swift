// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconProfiles
import HCI
import Synchronization

/// Follows the updates a player posts to a ``ScenarioStage``: how long each took to settle, and
/// whether a new one is posted before the one before it settled (the controller is not keeping
/// up with the rate of changes).
final class UpdateTracker: Sendable {
    private struct State {
        var issued = 0
        var settled = 0
        var behind = 0
        var failures: [TermedText] = []
    }

    private let state = Mutex(State())
    let fleet: any ScenarioStage

    init(fleet: any ScenarioStage) { self.fleet = fleet }

    /// Posts `beacons`; returns the generation and whether the previous update had not settled yet.
    func post(_ beacons: [BeaconProfile]) -> (generation: Int, behind: Bool) {
        let generation = fleet.update(beacons)
        let behind: Bool = state.withLock { s in
            let late = s.settled < s.issued
            if late { s.behind += 1 }
            s.issued = generation
            return late
        }
        Task { [fleet, self] in
            let outcome = await fleet.settled(generation)
            self.state.withLock { s in
                s.settled = max(s.settled, generation)
                if case .failed(let why) = outcome { s.failures.append(why) }
            }
        }
        return (generation, behind)
    }

    /// How many updates were posted before the previous one settled.
    var behindCount: Int { state.withLock { $0.behind } }
    var failures: [TermedText] { state.withLock { $0.failures } }

    /// Marks `generation` as the one already on air (the fleet's start).
    func started(generation: Int) { state.withLock { $0.issued = generation; $0.settled = generation } }
}

extension ContinuousClock.Instant {
    /// `seconds` after this instant.
    func adding(seconds: Double) -> ContinuousClock.Instant { self + .nanoseconds(Int64((seconds * 1e9).rounded())) }
}
