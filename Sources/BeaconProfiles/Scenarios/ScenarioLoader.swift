// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Yams

/// Reads scenario files into validated ``Scenario``s: every problem of the scenario (and of the
/// fleet profile it names) is collected and thrown together as ``ProfileErrors``, each with its
/// file, line and column, before anything could be sent.
public enum ScenarioLoader {
    /// Parses the text of a scenario; `file` labels locations, and `fleet:` paths are relative to
    /// its directory.
    public static func parse(_ text: String, file: String) throws(ProfileErrors) -> Scenario {
        if let issue = ProfileLoader.sizeIssue(bytes: text.utf8.count, file: file) { throw ProfileErrors(issues: [issue]) }
        let directory = (file as NSString).deletingLastPathComponent
        let reader = ScenarioReader(file: file) { path in
            let resolved = path.hasPrefix("/") || directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path)
            return ProfileLoader.readFleet(path: resolved)
        }
        let root: Node?
        do throws(DocumentRefused) { root = try reader.sink.compose(text) } catch {
            throw ProfileErrors(issues: reader.sink.sortedIssues)
        }
        let scenario = reader.read(root)
        let issues = reader.sink.sortedIssues + reader.fleetIssues
        guard issues.isEmpty, let scenario else { throw ProfileErrors(issues: issues) }
        return scenario
    }

    /// Whether `text` is a scenario rather than a profile: a mapping with `steps:` or `fleet:`
    /// (keys no profile has). Text that is not even YAML is left to the profile loader's report.
    public static func isScenario(_ text: String) -> Bool {
        var sink = IssueSink(file: "")
        guard case .mapping(let mapping)? = try? sink.compose(text) else { return false }
        return mapping.keys.contains { $0.string == "steps" || $0.string == "fleet" }
    }

    /// Whether the file at `path` holds a scenario (false when it cannot be read, or is not a
    /// regular file: a pipe can be read only once, so it is left to the profile loader).
    public static func isScenarioFile(_ path: String) -> Bool {
        guard case .success(let text) = ProfileLoader.readText(path, accepting: .regularFiles) else { return false }
        return isScenario(text)
    }

    /// Reads and parses one scenario file.
    public static func load(contentsOf path: String) throws(ProfileErrors) -> Scenario {
        switch ProfileLoader.readText(path) {
        case .success(let text): return try parse(text, file: path)
        case .failure(let issue): throw ProfileErrors(issues: [issue])
        }
    }
}
