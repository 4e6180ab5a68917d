// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconPositioning
import BeaconProfiles
import HCI
import BeaconRadio

/// Moves a ``WalkModel``'s walker in real time: `rate` times a second it works out every
/// beacon's measured power (and TX power) for the walker's position and posts the fleet to
/// the running fleet, which sends only what changed (the data of a set with legacy PDUs may
/// change while it is enabled: one command per beacon whose measured power changed).
///
/// On the shared virtual air the walker's position is announced at each step too, so a
/// receiver that follows the walker (`locate --live -i virtual --follow-walker`) hears the
/// beacons from where the walker is: on that air the RSSI comes from the distance, so the
/// estimate follows the walk.
public struct WalkPlayer: Sendable {
    public let model: WalkModel
    /// Updates per second.
    public let rate: Double

    public init(model: WalkModel, rate: Double = 10) {
        precondition(rate > 0 && rate.isFinite)
        self.model = model
        self.rate = rate
    }

    public enum Event: Sendable {
        /// The walker is at `position` at `time` seconds, and `beacons` are what the fleet
        /// advertises for it; update `generation` carries them (nil: nothing changed since the
        /// last update). `behind`: the update before had not settled.
        case moved(time: Double, position: Point, beacons: [BeaconProfile], generation: Int?, behind: Bool)
        /// The walk is over (not reported when it loops until stopped).
        case finished(time: Double, updates: Int, behind: Int, failures: [TermedText])
    }

    /// Walks from `start` (when the beacons of time 0 went on air) for `duration` seconds
    /// (nil: until the path's end, or until the task is cancelled when it loops).
    public func walk(on fleet: RunningFleet, from start: ContinuousClock.Instant, duration: Double? = nil,
                     report: @Sendable (Event) -> Void) async {
        let tracker = UpdateTracker(fleet: fleet)
        tracker.started(generation: 1)
        // --duration wins (standing at the last waypoint once the path is walked); otherwise
        // the path once, or until stopped when it loops.
        let end = duration ?? model.route.duration
        var last = model.beacons(at: 0).beacons
        var updates = 0
        var tick = 1
        func announce(_ position: Point) {
            for connection in fleet.connections { connection.announceWalker(at: position) }
        }
        announce(model.walker(at: 0))
        report(.moved(time: 0, position: model.walker(at: 0), beacons: last, generation: 1, behind: false))
        while end.map({ $0 > 0 }) ?? true {
            var time = Double(tick) / rate
            if let end, time > end { time = end }
            guard await ScenarioPlayer.sleep(until: start.adding(seconds: time)) else { return }
            let (position, beacons) = model.beacons(at: time)
            announce(position)
            if beacons != last {
                let posted = tracker.post(beacons)
                last = beacons
                updates += 1
                report(.moved(time: time, position: position, beacons: beacons, generation: posted.generation, behind: posted.behind))
            } else {
                report(.moved(time: time, position: position, beacons: beacons, generation: nil, behind: false))
            }
            if let end, time >= end { break }
            tick += 1
        }
        report(.finished(time: end ?? 0, updates: updates, behind: tracker.behindCount, failures: tracker.failures))
    }
}
