// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Synchronization

/// The running side of ``LiveTelemetry`` for one ``RunningFleet``: keeps the beacons last asked
/// for (with their UID/URL frames) and the fleet's start, and wakes at each burst's start and end
/// to post the frames then on air. Beacons without `tlm:` never wake it.
final class TelemetryClock: Sendable {
    private struct State {
        var requested: [BeaconProfile] = []
        var start: ContinuousClock.Instant?
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Records `beacons` as asked for; returns what goes on air now (before the start: as at 0).
    func request(_ beacons: [BeaconProfile]) -> [BeaconProfile] {
        state.withLock { s in
            s.requested = beacons
            return LiveTelemetry.frames(beacons, at: s.start.map { .now - $0 } ?? .zero)
        }
    }

    /// Starts the clock (once) and the wake-ups; `post` puts frames on air.
    func start(posting post: @escaping @Sendable ([BeaconProfile]) -> Void) {
        let clock = ContinuousClock()
        let start = state.withLock { s in
            if s.start == nil { s.start = clock.now }
            return s.start!
        }
        let task = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                let beacons = self.state.withLock { $0.requested }
                guard let next = LiveTelemetry.nextChange(beacons, after: clock.now - start) else { return }
                // A timer, not a synchronisation: the bursts are as long as the profile says.
                do { try await Task.sleep(until: start + next, clock: clock) } catch { return }
                let now = self.state.withLock { s in LiveTelemetry.frames(s.requested, at: next) }
                post(now)
            }
        }
        let old = state.withLock { s in
            defer { s.task = task }
            return s.task
        }
        old?.cancel()
    }

    /// Whether any beacon asked for has `tlm:`.
    var isNeeded: Bool { state.withLock { s in s.requested.contains { $0.telemetry != nil } } }

    func stop() {
        state.withLock { s in s.task }?.cancel()
    }
}
