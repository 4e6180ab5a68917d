// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import HCI

/// What one beacon really got on air during a run, as far as the controller's answers show:
/// measured, not planned (a running fleet's coverage meter, which ``CoverageReport`` reports).
public struct BeaconCoverage: Sendable, Hashable {
    public var beacon: BeaconName
    /// The longest it may have gone unheard between two of its turns: from the earliest its last
    /// event of one turn can have been to the latest its first of the next can be (nil: it
    /// never came back on air after leaving it, or it never left: see ``planned``).
    public var longestSilence: Duration?
    /// The plan's bound for it (``Placement/longestGap``).
    public var planned: Duration
    /// Its turns on air so far.
    public var turns: Int
    /// The advertising events a second its finished turns certainly had (nil before two turns):
    /// with an event limit, that many a turn; otherwise those that fit between its enable and
    /// its disable, each an interval and at most 10 ms after the one before.
    public var eventsPerSecond: Double? = nil
    /// Whether it went unheard for clearly longer than the plan said: by more than
    /// ``CoverageReport/tolerance(of:)`` (a turn a few milliseconds late is the host's ordinary
    /// jitter, not news).
    public var missedPlan: Bool { (longestSilence ?? .zero) > planned + CoverageReport.tolerance(of: planned) }
}

/// Measures each beacon's silences from when the commands of every turn were sent and answered,
/// the way the plan's model bounds them (``TurnTiming``), but with the real instants: a beacon's
/// first event in a turn comes at most one advDelay (10 ms) after its enable was answered; its
/// last one no sooner than its turn began, nor than an interval and 10 ms before its set's
/// disable was sent (the host times the turn), nor, with an event limit, than its events'
/// intervals after its turn began (the controller ends the turn after them). A late turn, a slow controller, a stalled host, a
/// restore after a loss: each shows up here as it happened.
struct CoverageMeter {
    private struct Track {
        var planned: Duration
        var interval: Duration
        /// The events its set was enabled with in its current turn (0: no limit).
        var limit = 0
        /// While on air: when its turn's commands began to be sent (its enable was carried out
        /// no sooner, so its first event came no sooner).
        var onSince: ContinuousClock.Instant?
        /// While off air: the earliest its last event can have been.
        var offSince: ContinuousClock.Instant?
        /// While on air: when its enable was answered (its first event came by then and 10 ms).
        var answered: ContinuousClock.Instant?
        var longest: Duration?
        var turns = 0
        /// The events its turns certainly had; those of the turns before its latest one, and the
        /// span from its first turn's start to its latest's (whole cycles: a rate, not a burst).
        var events = 0
        var eventsBeforeLatest = 0
        var firstOn: ContinuousClock.Instant?
        var latestOn: ContinuousClock.Instant?
    }

    private var tracks: [BeaconName: Track] = [:]
    /// The latest any turn started after it was due, and each turn's commands' time per command.
    private(set) var latestTurn: Duration = .zero
    /// The longest any turn's commands took, from the first sent to the last answered.
    private(set) var slowestCommands: Duration = .zero
    private var perCommand: [Duration] = []

    /// A new target: its beacons' plan bounds (those that left it are forgotten: a beacon a
    /// scenario hides is off air on purpose).
    mutating func plan(_ gaps: [BeaconName: Duration]) {
        tracks = tracks.filter { gaps[$0.key] != nil }
        for (beacon, gap) in gaps { tracks[beacon, default: Track(planned: gap, interval: .zero)].planned = gap }
    }

    /// A turn's commands were sent from `start` and all answered at `answered`, `lateness` after
    /// it was due; `left` left the air, `came` came on, each with its interval and event limit.
    /// Only a rotation's turns (`rotation`) count towards the command times: a setup or an
    /// update sends many more commands than a turn. `stoppedByController`: those of `left` whose
    /// sets the controller stopped after their limit of events (LE Advertising Set Terminated):
    /// they had exactly that many.
    mutating func turn(start: ContinuousClock.Instant, answered: ContinuousClock.Instant, commands: Int, lateness: Duration,
                       left: [BeaconName], came: [(beacon: BeaconName, interval: AdvertisingInterval, limit: Int)], rotation: Bool = true,
                       stoppedByController: Set<BeaconName> = []) {
        latestTurn = max(latestTurn, lateness)
        if commands > 0, rotation {
            slowestCommands = max(slowestCommands, answered - start)
            perCommand.append((answered - start) / commands)
            if perCommand.count > 512 { perCommand.removeFirst(256) }
        }
        let d = AdvertisingInterval.maximumAdvertisingDelay
        for beacon in left {
            guard var t = tracks[beacon], let on = t.onSince else { continue }
            // The host sent the disable at `start` or later; the set advertised until then, or
            // (with a limit) until its events were over, whichever came first.
            var last = max(on, start - t.interval - d)
            if t.limit > 0 { last = max(on, min(last, on + t.interval * (t.limit - 1))) }
            // Its certain events: the first by its enable's answer and 10 ms, then one every
            // interval and 10 ms before the disable, no more than its limit.
            if let up = t.answered {
                let window = start - up - d
                var count = window >= .zero ? 1 + Int((window / (t.interval + d)).rounded(.down)) : 0
                if t.limit > 0 { count = stoppedByController.contains(beacon) ? t.limit : min(count, t.limit) }
                t.events += count
            }
            t.offSince = last
            t.onSince = nil
            t.answered = nil
            tracks[beacon] = t
        }
        for c in came {
            guard var t = tracks[c.beacon] else { continue }
            if let off = t.offSince {
                let silence = answered + d - off
                t.longest = max(t.longest ?? .zero, silence)
            }
            t.offSince = nil
            t.onSince = start
            t.answered = answered
            if t.firstOn == nil { t.firstOn = start }
            t.latestOn = start
            t.eventsBeforeLatest = t.events
            t.interval = c.interval.duration
            t.limit = c.limit
            t.turns += 1
            tracks[c.beacon] = t
        }
    }

    /// The beacons on air as far as the meter knows.
    var onAir: [BeaconName] { tracks.filter { $0.value.onSince != nil }.map(\.key) }

    /// How many turns' command times are kept.
    var commandSamples: Int { perCommand.count }

    /// The median time a command of the run's turns took, once there are a few.
    var commandTime: Duration? {
        guard perCommand.count >= 3 else { return nil }
        return perCommand.sorted()[perCommand.count / 2]
    }

    /// Every beacon's figures, by name.
    var beacons: [BeaconCoverage] {
        tracks.sorted { $0.key.text < $1.key.text }.map { name, t in
            var c = BeaconCoverage(beacon: name, longestSilence: t.longest, planned: t.planned, turns: t.turns)
            if let first = t.firstOn, let latest = t.latestOn, latest > first, t.turns > 1 {
                c.eventsPerSecond = Double(t.eventsBeforeLatest) / (latest - first).seconds
            }
            return c
        }
    }

    /// Whether some beacon went unheard for longer than the plan said.
    var missesPlan: Bool { tracks.values.contains { ($0.longest ?? .zero) > $0.planned + CoverageReport.tolerance(of: $0.planned) } }
}

/// One adapter's measured coverage (``EmulatorEvent/coverage(adapter:_:)``): per beacon, and what
/// the run's turns showed of the host and the controller, for a cause when the plan was missed.
public struct CoverageReport: Sendable, Hashable {
    /// Every rotating beacon's figures.
    public var beacons: [BeaconCoverage]
    /// The latest any turn started after it was due.
    public var latestTurn: Duration
    /// The median time a turn's command took (nil: too few turns yet).
    public var commandTime: Duration?
    /// The command time the plan was made with, and the first plan's (before any re-plan for
    /// the measured time: ``EmulatorEvent`` `replanned`).
    public var plannedCommandTime: Duration
    public var firstPlannedCommandTime: Duration? = nil
    /// How often the turns were planned again for the measured command time.
    public var replans = 0
    /// The longest any turn's commands took, and what the plan allows a turn's commands.
    public var slowestCommands: Duration = .zero
    public var plannedCommands: Duration = .zero
    /// The plan's longest silence and the goal (`--max-silence`).
    public var plannedSilence: Duration
    public var goal: Duration
    /// The run's last report (at the end), rather than one on the way.
    public var final: Bool
    /// The first report on the way that finds the plan missed: the one a log shows.
    public var firstMiss = false

    /// The longest any beacon went unheard (zero before any came back for a second turn).
    public var longestSilence: Duration { beacons.compactMap(\.longestSilence).max() ?? .zero }
    /// Whether some beacon went unheard for longer than the plan said.
    public var missedPlan: Bool { beacons.contains(where: \.missedPlan) }
    /// The fewest events a second any beacon's finished turns certainly had.
    public var fewestEventsPerSecond: Double? { beacons.compactMap(\.eventsPerSecond).min() }
    /// Whether some beacon went unheard for clearly longer than the goal.
    public var missedGoal: Bool { longestSilence > goal + Self.tolerance(of: goal) }

    /// How much longer than a bound a measured silence may be before it counts as missing it:
    /// 10 ms (one advDelay's worth: a turn that started a few milliseconds late on a busy host),
    /// or 2 % of a long bound.
    public static func tolerance(of bound: Duration) -> Duration { max(.milliseconds(10), bound / 50) }
    /// Whether the controller answered commands clearly slower than the plan assumed (by more
    /// than a quarter).
    public var slowController: Bool {
        replans > 0 || (commandTime ?? .zero) > (firstPlannedCommandTime ?? plannedCommandTime) * 1.25
    }
    /// Whether some turn's commands took clearly longer than the plan allows (a controller or a
    /// link that stalls now and then).
    public var slowTurns: Bool { slowestCommands > plannedCommands + Self.tolerance(of: plannedCommands) }
    /// Whether turns started late by more than a tenth of the plan's silence and 20 ms: a host
    /// too busy to keep the schedule.
    public var lateTurns: Bool { latestTurn > max(.milliseconds(20), plannedSilence / 10) }
}
