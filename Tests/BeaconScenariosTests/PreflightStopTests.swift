// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios
import Testing

/// A long scenario's preflight (every state it puts on air, planned and checked) can take a
/// while; a stop signal must not wait for it.
@Suite("Scenario preflight")
struct PreflightStopTests {
    static let text = "fleet: {beacons: [{name: door, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, minor: 1}]}\n"
        + "steps: [{at: 0, repeat: 50, every: 1s, steps: [{at: 0, beacon: door, interval: 30}]}]\n"

    static func refusals(stoppingAfter limit: Int?) throws -> (refusals: Int, asked: Int) {
        let timeline = ScenarioTimeline(try ScenarioLoader.parse(text, file: "s.yaml"))
        // Bluetooth 4.2 without extended advertising: a 30 ms non-connectable interval is below its
        // 100 ms minimum, so every state is refused.
        let legacy = ControllerCapabilities(adapter: "hci0", hciVersion: .v4_2, leFeatures: [], advertisingSets: 1, maximumDataLength: 31)
        var asked = 0
        let found = ScenarioPreflight.refusals(timeline, planner: FleetPlanner(), capabilities: [legacy]) {
            asked += 1
            return limit.map { asked > $0 } ?? false
        }
        return (found.count, asked)
    }

    @Test("asked before each state; once a stop is asked for, no further state is checked")
    func stopsWhenAsked() throws {
        let whole = try Self.refusals(stoppingAfter: nil)
        #expect(whole.asked == 51, "the start and 50 moments")
        #expect(whole.refusals == 50, "every moment after the start is refused")
        let stopped = try Self.refusals(stoppingAfter: 3)
        #expect(stopped.asked == 4)
        #expect(stopped.refusals < whole.refusals && stopped.refusals <= 3)
    }
}
