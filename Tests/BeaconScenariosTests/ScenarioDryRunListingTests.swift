// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios
import Testing

/// A scenario's dry run as text and JSON Lines (what `play --dry-run` prints), without the binary.
@Suite("Scenario dry-run listing")
struct ScenarioDryRunListingTests {
    static func list(_ timeline: ScenarioTimeline, on capabilities: [ControllerCapabilities], json: Bool = false) -> ([String], ScenarioCommandListing.Refusal?) {
        var lines: [String] = []
        do throws(ScenarioCommandListing.Refusal) {
            try ScenarioCommandListing.list(timeline, planner: FleetPlanner(), capabilities: capabilities, hcitoolAdapter: "hci0", json: json) { lines.append($0) }
        } catch {
            return (lines, error)
        }
        return (lines, nil)
    }

    @Test("the timeline as comments, then each step's heading and commands")
    func text() throws {
        let timeline = try ScenarioCommandListingTests.timeline("[{at: 1.5s, hide: door}]")
        let (lines, refusal) = Self.list(timeline, on: [ScenarioCommandListingTests.extended])
        #expect(refusal == nil)
        #expect(Array(lines.prefix(4)) == [
            "# dry run: no adapter is opened, nothing is sent",
            "# scenario s.yaml over its own fleet: one pass of 1.5 s",
            "# timeline (each pass starts from the fleet as declared):",
            "#   1.5 s  hide door  (s.yaml:6:9)",
        ], "\(lines.prefix(4))")
        let headings = lines.filter { $0.hasPrefix("#\n# == ") }
        #expect(headings.first == "#\n# == hci0: start (0 s): fleet on air: door, till")
        #expect(headings.contains { $0.hasPrefix("#\n# == hci0: 1.5 s: hide door — fleet on air: till") })
        #expect(headings.last == "#\n# == hci0: teardown: advertising off, sets removed")
        #expect(lines.contains { $0.hasPrefix("hcitool -i hci0 cmd 0x08 ") })
    }

    @Test("JSON: one object per command, its section the step's key")
    func json() throws {
        let timeline = try ScenarioCommandListingTests.timeline("[{at: 2s, hide: door}]")
        let (lines, _) = Self.list(timeline, on: [ScenarioCommandListingTests.extended], json: true)
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix(#"{"adapter":"hci0","section":""#) })
        #expect(lines.contains { $0.contains(#""section":"t=2 s""#) } && lines.last?.contains(#""section":"teardown""#) == true)
    }

    @Test("a refusal says where, in the words of the listing")
    func refusal() throws {
        let timeline = try ScenarioCommandListingTests.timeline("[{at: 1s, beacon: door, interval: 30}]", tail: "hidden: [till]\n")
        let (_, refusal) = Self.list(timeline, on: [ScenarioCommandListingTests.legacy])
        let found = try #require(refusal)
        #expect(found.description.hasPrefix("hci1: LE Set Advertising Parameters would be refused at t=1 s: "), "\(found)")
    }
}
