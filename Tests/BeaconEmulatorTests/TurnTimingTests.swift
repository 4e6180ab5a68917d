// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import BeaconJSON
import BeaconProfiles
import HCI

/// The time model against a simulation of the link layer and the host: turns on time, each command
/// answered in 0…commandTime, every event's advDelay in 0…10 ms (both drawn from a fixed seed, half
/// of them at an extreme), and the three ways a turn runs (the host disables the set at the next
/// turn; the controller stops it after its events; a shared address keeps it enabled). What the
/// simulation hears must never be worse than what the model promises.
@Suite struct TurnTimingTests {
    enum Ending: CaseIterable { case host, controller, shared }

    struct Heard { var longestSilence = 0.0; var fewestEvents = Int.max }

    /// One beacon's events over `cycles` cycles of `turns` turns; times in milliseconds.
    static func simulate(_ ending: Ending, timing: TurnTiming, turn: Double, turns: Int, interval: Double, cycles: Int,
                         seed: UInt64) -> Heard {
        var random = SplitMix64(seed: seed)
        func draw(_ top: Double) -> Double {
            switch random.next() % 4 {
            case 0: 0
            case 1: top
            default: Double(random.next() % 1_000_001) / 1_000_000 * top
            }
        }
        let c = timing.commandTime.seconds * 1000, slack = TurnTiming.hostSlack.seconds * 1000
        let d = TurnTiming.advertisingDelay.seconds * 1000
        let k = timing.commands
        // When each turn's first command (the disable, or the first data) and last command (the
        // enable) are answered.
        var firstAnswered: [Double] = [], lastAnswered: [Double] = [], dataAnswered: [Double] = []
        let total = turns * cycles + 1
        for n in 0..<total {
            var t = Double(n) * turn + draw(slack)
            var times: [Double] = []
            for _ in 0..<k { t += draw(c); times.append(t) }
            firstAnswered.append(times[0])
            lastAnswered.append(times[k - 1])
            dataAnswered.append(times[Int(random.next() % UInt64(k))])
        }
        var events: [Double] = []
        var heard = Heard()
        if ending == .shared {
            // One set, always enabled, events at its own phase; the beacon's data is up from its
            // command in its turn to the next turn's.
            var e = draw(interval)
            let end = Double(total) * turn
            var n = 0
            var perTurn = 0
            while e < end {
                while n + 1 < total, dataAnswered[n + 1] <= e { n += 1 }
                if n % turns == 0, e >= dataAnswered[n] { events.append(e); perTurn += 1 }
                e += interval + draw(d)
            }
        } else {
            let limit = ending == .controller ? timing.events(in: .milliseconds(turn), at: .milliseconds(interval)) : Int.max
            for n in stride(from: 0, to: total - 1, by: turns) {
                let stop = firstAnswered[n + 1]  // the next turn's disable
                var e = lastAnswered[n] + draw(d)
                var count = 0
                while e < stop, count < limit {
                    events.append(e)
                    count += 1
                    e += interval + draw(d)
                }
                heard.fewestEvents = min(heard.fewestEvents, count)
            }
        }
        for (a, b) in zip(events, events.dropFirst()) { heard.longestSilence = max(heard.longestSilence, b - a) }
        return heard
    }

    @Test(arguments: Ending.allCases)
    func noSimulatedSilenceIsLongerThanTheModelSays(_ ending: Ending) {
        var worstShare = 0.0
        var seed: UInt64 = 1
        for c in [0.2, 1.0, 3.0] {
            for k in [4, 10, 34] {
                let timing = TurnTiming(commandTime: .milliseconds(c), commands: k, sharedAddress: ending == .shared)
                for turns in [2, 7, 40] {
                    for intervalMs in [20.0, 100, 152.5, 1000] {
                        let shortest = max(20, timing.shortestTurn.seconds * 1000)
                        let meeting = timing.longestTurn(meeting: .seconds(1), turns: turns).seconds * 1000
                        for turn in Set([shortest, max(shortest, meeting), 300]) {
                            // A shared address needs an interval whose event fits in each turn's data.
                            var interval = intervalMs
                            if ending == .shared {
                                interval = min(interval, turn - TurnTiming.hostSlack.seconds * 1000 - timing.commandsTime.seconds * 1000 - 10)
                                guard interval >= 20 else { continue }
                            }
                            seed += 1
                            let heard = Self.simulate(ending, timing: timing, turn: turn, turns: turns, interval: interval,
                                                      cycles: turns > 10 ? 6 : 30, seed: seed)
                            let bound = timing.longestGap(turn: .milliseconds(turn), turns: turns, interval: .milliseconds(interval)).seconds * 1000
                            #expect(heard.longestSilence <= bound + 1e-6,
                                    "\(ending) c=\(c) k=\(k) turns=\(turns) interval=\(interval) turn=\(turn): heard \(heard.longestSilence) ms, model \(bound) ms")
                            if ending != .shared {
                                let promised = timing.events(in: .milliseconds(turn), at: .milliseconds(interval))
                                #expect(heard.fewestEvents >= promised, "\(ending) c=\(c) k=\(k) turn=\(turn) interval=\(interval)")
                            }
                            worstShare = max(worstShare, heard.longestSilence / bound)
                        }
                    }
                }
            }
        }
        // The bound is not vacuous: somewhere the simulation comes close to it.
        #expect(worstShare > 0.9, "the closest the simulation came to the model's bound: \(worstShare)")
    }

    @Test func eventsPerTurnAreTheMostThatCertainlyFit() {
        let timing = TurnTiming(commandTime: .milliseconds(1), commands: 10)
        // 333 ms at 20 ms: 2 + 10 + 10 ms before the first event ends, then 30 ms per event at most.
        #expect(timing.events(in: .milliseconds(333), at: .milliseconds(20)) == 11)
        // Not 333 / 20 = 17: seventeen events take up to 16 × 30 + 10 ms after the commands.
        #expect(timing.events(in: .milliseconds(25), at: .milliseconds(100)) == 1)
        #expect(timing.shortestTurn == .milliseconds(22))
    }

    /// A controller of `sets` sets that answers each command in `commandTime`.
    static func controller(sets: Int, commandTime: Duration) -> ControllerCapabilities {
        var caps = extended(sets)
        caps.commandTime = commandTime
        return caps
    }

    @Test(arguments: [(1, 1.0), (1, 3.0), (4, 1.0), (4, 3.0), (6, 1.0), (6, 3.0), (12, 1.0), (12, 3.0), (16, 1.0), (16, 3.0)])
    func thePlannerReachesTheLimitAndNoFurther(_ sets: Int, _ commandMs: Double) {
        let caps = Self.controller(sets: sets, commandTime: .milliseconds(commandMs))
        let planner = FleetPlanner()
        // The limit, worked out by hand from the model (BENCHMARKS.md): per set, as many turns as
        // fit in the goal with the first event of each 2 ms + k·c + 10 ms into its turn, turns of
        // at least 2 ms + k·c + 10 ms (and 20 ms), k = 2 + 2 × sets.
        let k = 2.0 + 2 * Double(sets), lead = 2 + k * commandMs
        let shortest = max(20, lead + 10)
        let turns = Int(((1000 - lead - 10) / shortest).rounded(.down))
        #expect(planner.beaconCapacity(of: caps) == sets * turns)
        let full = planner.plan(beacons(sets * turns), on: [caps])
        #expect(full.meetsGoal, "\(sets * turns) beacons on \(sets) sets at \(commandMs) ms: \(full.longestSilence)")
        // One more turn's worth does not.
        let more = planner.plan(beacons(sets * (turns + 1)), on: [caps])
        #expect(!more.meetsGoal, "\(sets * (turns + 1)) beacons: \(more.longestSilence)")
    }

    @Test func station160OnFourSetsMeetsTheGoalAtOneMillisecondAndSaysWhatItKeepsAtThree() {
        let planner = FleetPlanner()
        let fast = planner.plan(beacons(160), on: [Self.controller(sets: 4, commandTime: .milliseconds(1))])
        #expect(fast.meetsGoal && fast.longestSilence <= .seconds(1), "\(fast.longestSilence)")
        let slow = planner.plan(beacons(160), on: [Self.controller(sets: 4, commandTime: .milliseconds(3))])
        // 40 turns of 2 + 10 × 3 + 10 ms, each beacon's first event up to 42 ms into its turn.
        #expect(slow.adapters[0].slotDuration == .milliseconds(42))
        #expect(slow.longestSilence == .milliseconds(40 * 42 + 42), "\(slow.longestSilence)")
        #expect(!slow.meetsGoal && slow.adaptersNeeded == 2)
        // A measured time below the floor counts as the floor: a plan on a fast peer holds on USB.
        let instant = planner.plan(beacons(160), on: [Self.controller(sets: 4, commandTime: .microseconds(50))])
        #expect(instant.adapters[0].turnTiming.commandTime == FleetPlanner.assumedCommandTime)
    }

    @Test func aRotatingBeaconKeepsItsIntervalUnlessItSharesAnAddressAndThePlanSaysSo() {
        let own = FleetPlanner().plan(beacons(8, interval: 1000), on: [extended(4)])
        #expect(own.placements.allSatisfy { !$0.intervalChanged })
        #expect(!own.notes.contains { $0.description.contains("another interval") })
        let shared = FleetPlanner(shareAddresses: true).plan(beacons(8, interval: 1000), on: [extended(4)])
        let changed = shared.placements.first
        #expect(changed?.intervalChanged == true && changed?.profileInterval == AdvertisingInterval(milliseconds: 1000))
        #expect(shared.notes.contains { $0.description.hasPrefix("8 beacons (") && $0.description.contains("go on air at another interval than their profiles' (") })
        let text = PlanReport.json(shared, namedBy: { _ in nil }).text
        #expect(text.contains("\"profile_interval_ms\":1000"), "\(text.prefix(400))")
        let table = PlanReport.table(shared).lines.joined(separator: "\n")
        #expect(table.contains("(asks 1000)"), "\(table)")
    }
}
