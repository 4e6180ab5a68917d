// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import TextLayout
import HCI

/// Every event in words, one line each: what a log of the run, a terminal's live view and any
/// program print (`beacon advertise` and the site agent show these lines). The terms in it (the
/// advice of a controller's error, the stop that takes what may be left off the air) are kept
/// in ``termedText`` for each front end to name; ``description`` is the same line in words.
extension EmulatorEvent: CustomStringConvertible, TermedTextConvertible {
    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The event's line: `room-west on air: hci0 advertiser 1, C2:…`, `hci0: error: …`.
    public var termedText: TermedText {
        switch self {
        case let .onAir(beacon, adapter, advertiser, address, power):
            let tx = power.map { ", TX \($0) dBm" } ?? ""
            // Through the management API the kernel picks the address, not the profile.
            let from = adapter.isManagementAPI ? "address chosen by the kernel" : "\(address)"
            return "\(beacon) on air: \(adapter) advertiser \(advertiser), \(from)\(tx)"
        case let .offAir(beacon, adapter, advertiser):
            return "\(beacon) off air: \(adapter) advertiser \(advertiser)"
        case let .slot(adapter, index, _, lateness):
            return Self.isLate(lateness) ? "\(adapter): turn \(index) started \(Self.milliseconds(lateness)) ms late" : "\(adapter): turn \(index) started on time"
        case let .error(adapter, message):
            return "\(adapter): error: \(message)"
        case let .updateFailed(generation, adapter, message):
            return "\(adapter): update \(generation) not applied (the beacons from before stay on air): \(message)"
        case let .applied(generation, adapter):
            return "\(adapter): update \(generation) on air"
        case let .recovered(adapter, reason, beacons, after, afterAdapterBack):
            let back = afterAdapterBack.map { " (\(Self.milliseconds($0)) ms after the adapter was back)" } ?? ""
            return "\(adapter): watchdog: \(reason); \(beacons.map(\.text).joined(separator: ", ")) back on air after \(Self.milliseconds(after)) ms\(back)"
        case let .turnTiming(adapter, byController):
            return byController
                ? "\(adapter): the controller ends each turn after the beacons' events (controller-timed turns)"
                : "\(adapter): a set did not stop after its events in time: the host times the turns again"
        case let .coverage(adapter, report):
            return "\(adapter): \(report.termedText)"
        case let .replanned(adapter, commandTime, slot, longest, goal):
            let keeps = longest <= goal + .milliseconds(1) ? "each beacon on air at least every \(Self.milliseconds(longest)) ms" : "a beacon may go unseen for \(Self.milliseconds(longest)) ms (goal \(Self.milliseconds(goal)) ms)"
            return "\(adapter): the controller answers commands in \(NumberText.string(commandTime.seconds * 1000, places: 1)) ms each here, not as planned: turns planned again with that and a tenth more: turns of \(Self.milliseconds(slot)) ms, \(keeps)"
        case let .stopped(adapter, teardown):
            if adapter.isManagementAPI, teardown == .clean {
                return "\(adapter): advertising stopped (beacon's instances removed; other programs' instances left as they were)"
            }
            if case .incomplete = teardown { return "\(adapter): \(teardown); run \(FrontEndTerm.stopOn(adapter: adapter.text))" }
            return "\(adapter): \(teardown)"
        }
    }

    /// Whether a log of the run shows the event: everything but updates applied and turns that
    /// started on time (the normal case, many times a second).
    public var isNews: Bool {
        switch self {
        case .applied: false
        case let .slot(_, _, _, lateness): Self.isLate(lateness)
        case let .coverage(_, report): report.final || report.firstMiss
        default: true
        }
    }

    /// Whether a turn that started `lateness` late is news: later than 20 ms.
    static func isLate(_ lateness: Duration) -> Bool { lateness > .milliseconds(20) }

    static func milliseconds(_ d: Duration) -> Int { Int((d.seconds * 1000).rounded()) }
}

extension Teardown: CustomStringConvertible, TermedTextConvertible {
    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// What the teardown left (why it failed keeps its advice's terms).
    public var termedText: TermedText {
        switch self {
        case .clean: "advertising stopped (advertising off, sets removed)"
        case .nothingSent: "nothing was sent to the controller, nothing to undo"
        case let .incomplete(names, reason):
            "the teardown failed (\(reason)): \(names.isEmpty ? "advertising" : names.map(\.text).joined(separator: ", ")) may still be on air"
        }
    }
}

extension CoverageReport {
    /// The report in words: as planned, or what was missed, its cause and what would meet it.
    public var termedText: TermedText {
        // Whole milliseconds, so that 1,004 ms against a plan of 1,000 reads as what it is.
        func ms(_ d: Duration) -> String { "\(EmulatorEvent.milliseconds(d)) ms" }
        let command = commandTime.map { "commands \(NumberText.string($0.seconds * 1000, places: 1)) ms each" } ?? "too few turns to time the commands"
        let late = "turns up to \(EmulatorEvent.milliseconds(latestTurn)) ms late"
        guard missedPlan else {
            let lead = final ? "coverage as planned" : "coverage so far as planned"
            let events = fewestEventsPerSecond.map { rate -> String in
                let shown = NumberText.rounded(rate, places: 1)
                return "; at least \(NumberText.string(shown)) \(Plural.word(shown, "event")) a second each"
            } ?? ""
            return "\(lead): every beacon heard again within \(ms(longestSilence)) (plan \(ms(plannedSilence)), goal \(ms(goal)))\(events); \(late); \(command)"
        }
        let worst = beacons.filter(\.missedPlan).max { ($0.longestSilence ?? .zero) < ($1.longestSilence ?? .zero) }
        let who = worst.map { " (\($0.beacon))" } ?? ""
        var causes: [String] = []
        func cms(_ d: Duration) -> String { "\(NumberText.string(d.seconds * 1000, places: 1)) ms" }
        if slowController, let c = commandTime {
            let again = replans > 0 ? "; the turns were planned again with it" : ""
            causes.append("the controller answered commands in \(cms(c)) each, the plan assumed \(cms(firstPlannedCommandTime ?? plannedCommandTime)) (a slow controller\(again))")
        }
        if slowTurns { causes.append("a turn's commands took up to \(ms(slowestCommands)) (the plan allows \(ms(plannedCommands)): a controller or link that stalls now and then)") }
        if lateTurns { causes.append("\(late) (a host too busy to keep the schedule)") }
        if causes.isEmpty { causes.append("\(late), \(command): a turn now and then slower than planned") }
        let lead = final ? "coverage MISSED the plan" : "coverage misses the plan"
        let goalText = missedGoal ? " and the goal" : ""
        return "\(lead)\(goalText): a beacon\(who) may have gone unheard for \(ms(longestSilence)) (plan \(ms(plannedSilence)), goal \(ms(goal))): \(causes.joined(separator: "; ")); more sets, a second adapter, fewer beacons or a longer goal (\(FrontEndTerm.maximumSilence)) would meet it"
    }
}
