// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios

/// `beacon validate SCENARIO.yaml`: a scenario file is checked as `play --dry-run` checks it,
/// with its fleet, and every state it puts on air against the controller `--dry-run` assumes
/// (extended advertising, 16 sets); nothing is opened.
extension ValidateCommand {
    struct ScenarioCheck {
        var file: String
        /// Beacons of its fleet and changes per pass, when it has no issue.
        var counts: (beacons: Int, changes: Int)?
        var issues: [ProfileIssue] = []
        /// Why the file could not be read.
        var unreadable: String?
    }

    /// Whether `path` holds a scenario (standard input is read once, as profiles).
    static func isScenarioFile(_ path: String) -> Bool {
        path != "-" && ScenarioLoader.isScenarioFile(path)
    }

    static func checkScenario(_ path: String) -> ScenarioCheck {
        let scenario: Scenario
        do throws(ProfileErrors) { scenario = try ScenarioLoader.load(contentsOf: path) } catch {
            if error.issues.count == 1, error.issues[0].isUnreadableFile {
                return ScenarioCheck(file: path, unreadable: error.issues[0].message)
            }
            return ScenarioCheck(file: path, issues: error.issues)
        }
        let timeline = ScenarioTimeline(scenario)
        // What play --dry-run assumes when no adapter is named.
        let assumed = ControllerCapabilities.assumed(for: nil, legacy: false, sets: nil)
        let refusals = ScenarioPreflight.refusals(timeline, planner: FleetPlanner(), capabilities: assumed)
        let issues = refusals.map { r in
            ProfileIssue(location: r.location ?? SourceLocation(file: path, line: 1, column: 1), field: "scenario",
                         value: "\(NumberText.string(r.time, places: 3)) s",
                         message: "the fleet as it is then would be refused by \(r.adapter) (as play --dry-run assumes it): \(r.reason)")
        }
        return ScenarioCheck(file: path, counts: issues.isEmpty ? (scenario.fleet.beacons.count, timeline.pass.count) : nil, issues: issues)
    }
}
