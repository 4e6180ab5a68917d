// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Foundation
import Synchronization
import Testing

/// The limits hold on the document as it expands (aliases and repeats multiplied out), and are
/// checked before the expansion costs anything: a few hundred bytes that stand for a million
/// changes are refused at once, with the line and the limit named.
@Suite("Scenario limits")
struct ScenarioLimitTests {
    static let fleet = "fleet: {beacons: [{name: door, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, minor: 1}]}\n"

    /// Blocks of ten aliases of the block before, `levels` deep: 10^levels changes in a few
    /// hundred bytes (the shape of issue #21's 786-byte file).
    static func nestedAliases(levels: Int) -> String {
        var text = fleet + "steps:\n  - &s0 {at: 0, beacon: door, minor: 2}\n"
        for level in 1...levels {
            text += "  - &s\(level) {at: 0, steps: [" + Array(repeating: "*s\(level - 1)", count: 10).joined(separator: ",") + "]}\n"
        }
        return text
    }

    static func issues(_ text: String) -> [ProfileIssue] {
        do {
            _ = try ScenarioLoader.parse(text, file: "s.yaml")
            return []
        } catch { return error.issues }
    }

    @Test("a million changes written as nested aliases: refused by the alias count, at the alias that goes past it")
    func nestedAliasesPastTheAliasLimit() {
        let text = Self.nestedAliases(levels: 6)
        #expect(text.utf8.count < 1000)
        let found = Self.issues(text)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.field): \($0.value)" } == ["9:25 yaml: more than 1000000 nodes"], "\(found)")
        #expect(found.first?.message.hasPrefix("YAML aliases may repeat at most 1000000 nodes in all") == true, "\(found)")
        // The same with the levels far deeper (10^12 changes): the same refusal, as soon.
        #expect(Self.issues(Self.nestedAliases(levels: 12)).map(\.field) == ["yaml"])
    }

    @Test("aliases within the alias limit still meet the changes limit, and reading stops there")
    func nestedAliasesPastTheChangesLimit() {
        let found = Self.issues(Self.nestedAliases(levels: 5))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.value == "more than \(Scenario.maximumChanges) changes", "\(found)")
        #expect(found.first?.message.contains("at most 100000 changes") == true, "\(found)")
    }

    @Test("100,000 flat steps are the most a pass may have; one more is refused at that step")
    func flatStepsMeetTheChangesLimit() throws {
        let step = "  - {at: 0, beacon: door, minor: 2}\n"
        let past = Self.issues(Self.fleet + "steps:\n" + String(repeating: step, count: Scenario.maximumChanges + 1))
        #expect(past.map { "\($0.location.line):\($0.location.column) \($0.field): \($0.value)" }
                == ["\(Scenario.maximumChanges + 3):5 steps: more than 100000 changes"], "\(past.prefix(3))")
        // Exactly the limit, written as aliases of one step (cheap to compose): accepted.
        let aliases = Array(repeating: "*s", count: Scenario.maximumChanges - 1).joined(separator: ", ")
        let full = try ScenarioLoader.parse(Self.fleet + "steps: [&s {at: 0, beacon: door, minor: 2}, \(aliases)]\n", file: "s.yaml")
        #expect(ScenarioTimeline(full).pass.count == Scenario.maximumChanges)
    }

    @Test("a repeated block is counted multiplied out")
    func repeatsAreMultipliedOut() {
        let inner = Array(repeating: "{at: 0, hide: door}", count: 101).joined(separator: ", ")
        let found = Self.issues(Self.fleet + "steps: [{at: 0, repeat: 1000, every: 1s, steps: [\(inner)]}]\n")
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.field): \($0.value)" } == ["2:9 steps.repeat: 101000 changes"], "\(found)")
    }

    @Test("aliases used as intended (a block written once, used twice) are read as written")
    func aliasesWithinTheLimitsAreAccepted() throws {
        let text = Self.fleet + "steps:\n  - &blink {at: 0, steps: [{at: 0, hide: door}, {at: 1, show: door}]}\n  - {at: 10, repeat: 3, every: 2s, steps: [*blink]}\n"
        let scenario = try ScenarioLoader.parse(text, file: "s.yaml")
        #expect(ScenarioTimeline(scenario).pass.map(\.time) == [0, 1, 10, 11, 12, 13, 14, 15])
    }

    @Test("a fleet: that names a FIFO is refused at once at `fleet:`, never waited on")
    func fleetFIFOIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(directory.appendingPathComponent("fleet.yaml").path, 0o600) == 0)
        // On a thread of its own, so that a regression fails here (the bound only catches a
        // hang: no writer will ever come) instead of hanging the suite.
        let found = Mutex<[ProfileIssue]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let issues: [ProfileIssue]
            do throws(ProfileErrors) {
                _ = try ScenarioLoader.parse("fleet: fleet.yaml\nsteps: [{at: 0, hide: a}]\n", file: directory.appendingPathComponent("s.yaml").path)
                issues = []
            } catch { issues = error.issues }
            found.withLock { $0 = issues }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "reading a FIFO named by fleet: did not return")
        let issues = try #require(found.withLock { $0 })
        #expect(issues.map { "\($0.location.line) \($0.field)" } == ["1 fleet"], "\(issues)")
        #expect(issues.first?.message.contains("it is a FIFO (named pipe)") == true, "\(issues)")
    }
}
