// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// What one turn of a rotation costs in time and what a beacon gets of it: the model every figure
/// of a plan comes from (events per turn, events a second, the longest silence, the turn the goal
/// allows), so that what the plan promises is what the air carries.
///
/// A turn starts when the host sends its commands: one disable for the sets that change, then per
/// set a new random address and new data (and new parameters where the set's beacons differ in
/// them, a scan response where one has one), then one enable (Core Vol 4 Part E §7.8.53–§7.8.56;
/// disable and enable split only by their 63-set limit). Controllers answer them one at a time
/// (Num_HCI_Command_Packets is 1 on many), each in ``commandTime``. The set's first event follows
/// the enable by up to one advDelay; every later one an interval and up to one advDelay after the
/// one before (T_advEvent = advInterval + advDelay, Core Vol 6 Part B §4.4.2.2.1).
///
/// Every event is budgeted the **maximum** advDelay, 10 ms, not its 5 ms mean: the plan's silences
/// are bounds, and with the mean (even with a margin) some turns overrun, each overrun a silence the
/// plan did not promise and a later turn. The price is events: a 20 ms beacon gets 2 events in
/// 90 ms of a turn instead of 3.
public struct TurnTiming: Sendable, Hashable {
    /// One command's round trip (the probe's measurement, at least ``FleetPlanner/assumedCommandTime``).
    public var commandTime: Duration
    /// Commands the host sends for one turn (see ``FleetPlanner/turnTiming(on:advertisers:beacons:)``).
    public var commands: Int
    /// Whether the rotating sets keep one address and stay enabled, so a turn is new data alone.
    public var sharedAddress: Bool

    public init(commandTime: Duration, commands: Int, sharedAddress: Bool = false) {
        self.commandTime = commandTime
        self.commands = commands
        self.sharedAddress = sharedAddress
    }

    /// The advDelay budgeted for every event: its maximum.
    public static let advertisingDelay = AdvertisingInterval.maximumAdvertisingDelay
    /// The host's own part of a turn: waking at the turn's time and handing the first command
    /// over (a millisecond or two on a busy machine).
    public static let hostSlack = Duration.milliseconds(2)

    /// The turn's commands, answered one after another.
    public var commandsTime: Duration { commandTime * commands }

    /// The shortest turn worth having: its commands and one event.
    public var shortestTurn: Duration { Self.hostSlack + commandsTime + Self.advertisingDelay }

    /// Advertising events a beacon certainly gets in a turn of `turn` at `interval` (at least one):
    /// the commands, then events at most an interval and 10 ms apart, all before the next turn.
    /// A set restarted for the turn is enabled with this count as its Max_Extended_Advertising_Events.
    public func events(in turn: Duration, at interval: Duration) -> Int {
        let d = Self.advertisingDelay
        if sharedAddress {
            // Its events keep their own phase: the data is up for the turn less its commands.
            let free = turn - Self.hostSlack - commandsTime
            return max(1, Int((free / (interval + d)).rounded(.down)))
        }
        let free = turn - Self.hostSlack - commandsTime - d
        guard free > .zero else { return 1 }
        return 1 + Int((free / (interval + d)).rounded(.down))
    }

    /// The longest a rotating beacon with `turns` turns per cycle goes unseen, with turns of `turn`
    /// starting on time and each command answered within ``commandTime`` (in no time at best:
    /// one turn's commands may be quick and the next one's slow). The worse of the two ways a
    /// turn ends:
    /// - controller-timed (the controller stops the set after its events): the last event comes
    ///   no sooner than (events − 1) intervals after the enable, itself no sooner than the turn's
    ///   start; the next first event at most the host's slack, the commands and 10 ms after the
    ///   start of its turn a cycle later;
    /// - host-timed (the host disables the set at the next turn): the set advertises until that
    ///   disable, so its last event is at most an interval and 10 ms before the next turn (and no
    ///   sooner than its own turn's start).
    /// A shared address keeps the set enabled: a beacon's data is up from its command in its turn
    /// to the next turn, its first event up to an interval and 10 ms after the data goes up.
    public func longestGap(turn: Duration, turns: Int, interval: Duration) -> Duration {
        let d = Self.advertisingDelay, lead = Self.hostSlack + commandsTime
        if sharedAddress {
            return turn * (turns - 1) + lead + (interval + d) * 2
        }
        let events = self.events(in: turn, at: interval)
        let cycle = turn * turns + lead + d
        let controllerTimed = cycle - interval * (events - 1)
        let hostTimed = min(cycle, turn * (turns - 1) + lead + interval + d * 2)
        return max(controllerTimed, hostTimed)
    }

    /// The longest turn with which a beacon of `turns` turns per cycle is silent no longer than
    /// `goal` (``longestGap(turn:turns:interval:)``), whatever its interval (a shared address: an
    /// interval of at most the turn's data time less 10 ms).
    public func longestTurn(meeting goal: Duration, turns: Int) -> Duration {
        let d = Self.advertisingDelay, lead = Self.hostSlack + commandsTime
        guard turns > 0 else { return goal }
        if sharedAddress {
            // (turns − 1)·T + lead + 2·(interval + d) ≤ goal, with interval + d ≤ T − lead
            return (goal + lead) / (turns + 1)
        }
        // Both ways, the first event of a turn alone counted: turns·T + lead + d ≤ goal.
        return (goal - lead - d) / turns
    }

    /// The longest an always-on beacon goes unseen: an interval and its advDelay.
    public static func longestGap(alwaysOnAt interval: Duration) -> Duration { interval + advertisingDelay }
}
