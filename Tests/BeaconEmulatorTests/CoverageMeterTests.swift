// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconProfiles
import HCI
@testable import BeaconEmulator

/// The meter's bounds, worked out by hand from the instants it is given.
@Suite struct CoverageMeterTests {
    let t0 = ContinuousClock.now
    func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    /// Beacon a on air in turns starting at 0 and 1000 ms, b at 500 ms; each turn's 4 commands
    /// answered 10 ms after it starts.
    func twoTurnsEach(limit: Int) -> CoverageMeter {
        var meter = CoverageMeter()
        meter.plan(["a": .milliseconds(700), "b": .milliseconds(700)])
        let i = AdvertisingInterval(milliseconds: 100)
        meter.turn(start: at(0), answered: at(10), commands: 4, lateness: .zero, left: [], came: [("a", i, limit)])
        meter.turn(start: at(500), answered: at(510), commands: 4, lateness: .milliseconds(3), left: ["a"], came: [("b", i, limit)])
        meter.turn(start: at(1000), answered: at(1010), commands: 4, lateness: .milliseconds(30), left: ["b"], came: [("a", i, limit)])
        return meter
    }

    @Test func aHostTimedTurnsSilenceRunsFromAnIntervalBeforeTheDisableToTheNextFirstEvent() {
        let meter = twoTurnsEach(limit: 0)
        let a = meter.beacons.first { $0.beacon == "a" }
        // Last event no sooner than 500 − 100 − 10 ms; next first event by 1010 + 10 ms.
        #expect(a?.longestSilence == .milliseconds(1020 - 390))
        #expect(a?.turns == 2 && a?.missedPlan == false)
        // Its first turn, enabled by 10 ms and disabled at 500 ms: events by 20 ms and then at
        // most 110 ms apart, 5 certain, in the second from its start to its next turn's.
        #expect(a?.eventsPerSecond == 5)
        // b came back for no second turn: no silence measured.
        #expect(meter.beacons.first { $0.beacon == "b" }?.longestSilence == nil)
        #expect(meter.latestTurn == .milliseconds(30))
        #expect(meter.commandTime == .microseconds(2500))
        #expect(!meter.missesPlan)
    }

    @Test func withAnEventLimitTheLastEventMayComeRightAfterTheEnable() {
        // Two events: the last no sooner than 0 + 100 ms.
        let meter = twoTurnsEach(limit: 2)
        let a = meter.beacons.first { $0.beacon == "a" }
        #expect(a?.longestSilence == .milliseconds(1020 - 100))
        #expect(a?.missedPlan == true && meter.missesPlan)
        // At most its limit of 2 events (the controller did not say it stopped the set).
        #expect(a?.eventsPerSecond == 2)
    }

    @Test func theReportNamesTheCauseAndWhatWouldMeetIt() {
        let meter = twoTurnsEach(limit: 2)
        let report = CoverageReport(beacons: meter.beacons, latestTurn: meter.latestTurn, commandTime: meter.commandTime,
                                    plannedCommandTime: .milliseconds(1), plannedSilence: .milliseconds(700), goal: .seconds(1), final: true)
        let text = report.termedText.description
        #expect(text.hasPrefix("coverage MISSED the plan: a beacon (a) may have gone unheard for 920 ms (plan 700 ms, goal 1000 ms): the controller answered commands in 2.5 ms each, the plan assumed 1 ms (a slow controller)"), "\(text)")
        #expect(text.hasSuffix("more sets, a second adapter, fewer beacons or a longer goal (\(FrontEndTerm.maximumSilence.conceptText)) would meet it"), "\(text)")
        let kept = CoverageReport(beacons: twoTurnsEach(limit: 0).beacons, latestTurn: .milliseconds(30), commandTime: .milliseconds(1),
                                  plannedCommandTime: .milliseconds(1), plannedSilence: .milliseconds(700), goal: .seconds(1), final: true)
        #expect(kept.termedText.description == "coverage as planned: every beacon heard again within 630 ms (plan 700 ms, goal 1000 ms); at least 5 events a second each; turns up to 30 ms late; commands 1 ms each")
    }
}
