// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios
import Testing

/// The preflight's work is bounded by what a scenario changes, not by moments × fleet: states are
/// counted, not timed.
@Suite("Scenario preflight work")
struct PreflightWorkTests {
    static let uuid = "8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E"
    /// Bluetooth 4.2 without extended advertising: 30 ms is below its 100 ms minimum.
    static let legacy = ControllerCapabilities(adapter: "hci0", hciVersion: .v4_2, leFeatures: [], advertisingSets: 1, maximumDataLength: 31)
    static let extended = ControllerCapabilities.assumedExtended(adapter: "hci0", sets: 16)

    static func fleet(_ count: Int) -> String {
        "fleet: {beacons: [" + (1...count).map { "{name: b\($0), uuid: \(uuid), major: 1, minor: \($0)}" }.joined(separator: ", ") + "]}\n"
    }

    static func check(_ text: String, on caps: ControllerCapabilities = extended, budget: Int = ScenarioPreflight.wholeStateBudget)
        throws -> ScenarioPreflight.Outcome {
        let timeline = ScenarioTimeline(try ScenarioLoader.parse(text, file: "s.yaml"))
        return ScenarioPreflight.check(timeline, planner: FleetPlanner(), capabilities: [caps], budget: budget)
    }

    @Test("steps that change only major, minor or measured power plan nothing new")
    func valueChangesReuseThePlan() throws {
        let steps = (1...400).map { "{at: \($0), beacon: b\($0 % 40 + 1), major: \($0), measured_power: -\(50 + $0 % 20)}" }
        let outcome = try Self.check(Self.fleet(40) + "steps: [" + steps.joined(separator: ", ") + "]\n")
        #expect(outcome.refusals.isEmpty)
        #expect(outcome.work.states == 401)
        #expect(outcome.work.wholePlans == 1, "the start only: \(outcome.work)")
    }

    @Test("a state seen before is not planned again, and keeps its verdict at every moment")
    func repeatedStatesArePlannedOnce() throws {
        // b2 blinks and b1 (alone on air) goes to 30 ms and back, 100 times: four distinct states.
        let text = Self.fleet(2) + """
            hidden: [b2]
            steps:
              - {at: 0, repeat: 100, every: 4s, steps: [{at: 1, show: b2}, {at: 2, hide: b2}, {at: 3, beacon: b1, interval: 30}, {at: 3.5, beacon: b1, interval: 100}]}
            """
        let outcome = try Self.check(text, on: Self.legacy)
        #expect(outcome.work.states == 401)
        #expect(outcome.work.wholePlans == 3, "the start (= after hide, after 100 ms), both on air, b1 at 30 ms: \(outcome.work)")
        // Every moment at 30 ms is refused, each at its own time, as when every state was planned.
        #expect(outcome.refusals.count == 100)
        #expect(outcome.refusals.map(\.time) == (0..<100).map { Double($0) * 4 + 3 })
        #expect(outcome.refusals.allSatisfy { $0.location?.line == 4 })
    }

    @Test("past the budget, each new beacon setting is planned on its own (taking turns when the fleet does); refusals are the same")
    func pastTheBudgetBeaconsAreCheckedAlone() throws {
        // b1…b50 hidden one by one, then shown one by one: 99 new states, then the start again.
        var steps = (1...100).map { k in "{at: \(k), \(k <= 50 ? "hide" : "show"): b\((k - 1) % 50 + 1)}" }
        // 30 ms while 50 beacons take turns on the one legacy advertiser: the planner raises a
        // rotating beacon's interval to the controller's 100 ms, so this is not refused…
        steps.append("{at: 150, beacon: b3, interval: 30}")
        // …but b7 alone on air at 30 ms is.
        steps.append("{at: 300, hide: [" + (1...50).filter { $0 != 7 }.map { "b\($0)" }.joined(separator: ", ") + "]}")
        steps.append("{at: 400, beacon: b7, interval: 30}")
        let text = Self.fleet(50) + "steps: [" + steps.joined(separator: ", ") + "]\n"
        let whole = try Self.check(text, on: Self.legacy, budget: .max)
        #expect(whole.work.wholePlans == 103, "the start, 99 new states, then 3 more: \(whole.work)")
        #expect(whole.work.singleBeaconPlans == 0)
        let bounded = try Self.check(text, on: Self.legacy, budget: 500)
        #expect(bounded.work.states == 104)
        #expect(bounded.work.beaconsPlanned <= 500 + 50)
        #expect(bounded.work.wholePlans < 20, "\(bounded.work)")
        // One plan per beacon and setting met past the budget: at most the 50 beacons shown, b3 at 30 ms, b7 at 30 ms.
        #expect(bounded.work.singleBeaconPlans > 0 && bounded.work.singleBeaconPlans <= 52, "\(bounded.work)")
        for outcome in [whole, bounded] {
            #expect(outcome.refusals.map(\.time) == [400], "\(outcome.refusals)")
            #expect(outcome.refusals.first?.reason.contains("too short") == true, "\(outcome.refusals)")
        }
    }
}
