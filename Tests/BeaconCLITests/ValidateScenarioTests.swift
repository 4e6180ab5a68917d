// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// `beacon validate` on scenario files: checked as `play --dry-run` checks them, next to profiles.
@Suite struct ValidateScenarioTests {
    @Test func shippedScenariosAndAProfileAreOK() throws {
        let result = try BeaconExecutable.run(["validate", "scenarios/store-opening.yaml", "profiles/room-2m.yaml"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains("scenarios/store-opening.yaml: OK (scenario: 11 changes per pass over 4 beacons)"), "\(result)")
        #expect(result.lines.contains("profiles/room-2m.yaml: OK (4 beacons)"), "\(result)")
    }

    @Test func everyIssueOfABrokenScenarioWithFileLineAndColumn() throws {
        let fleet = try BeaconExecutable.temporaryFile(named: "fleet.yaml", contents: "defaults: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0}\nbeacons: [{name: door, major: 1, minor: 1}]\n")
        let broken = try BeaconExecutable.temporaryFile(named: "broken-scenario.yaml", contents: """
            fleet: \(fleet)
            steps:
              - {at: 1s, show: nobody}
              - {at: 2s, beacon: door, interval: 10}

            """)
        let result = try BeaconExecutable.run(["validate", broken])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let issues = result.stderr.split(separator: "\n").map(String.init)
        #expect(issues.count == 2, "\(result)")
        #expect(issues.contains { $0.hasPrefix("\(broken):3:") && $0.contains(": steps.show: nobody: ") }, "\(result)")
        #expect(issues.contains { $0.hasPrefix("\(broken):4:") && $0.contains(": steps.interval: 10: ") }, "\(result)")

        let json = try BeaconExecutable.run(["validate", "--json", broken, "scenarios/region-exit.yaml"])
        #expect(json.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        #expect((object["issues"] as? [[String: Any]])?.count == 2, "\(json)")
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 1 && files[0]["file"] as? String == "scenarios/region-exit.yaml" && files[0]["scenario"] as? Bool == true, "\(json)")
    }
}
