// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconJSON
import BeaconProfiles

/// `beacon validate FILE…`: checks profile files, together, exactly as `advertise` would load
/// them, without touching any adapter.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check profile and scenario files.",
        discussion: """
            The files are checked together, exactly as `beacon advertise FILE…` would load \
            them: besides each file's own issues, beacons of different files with the same \
            uuid/major/minor or the same address are issues (reported at the later one, naming \
            the earlier). Prints "FILE: OK (N beacons)" for each file without issues of its \
            own; every issue goes to standard error as "file:line:column: field: value: \
            message", and then the exit status is 65 (1 if a file cannot be read). - reads \
            standard input.

            A scenario file (one with steps: or fleet:) is checked as play --dry-run checks \
            it: with its fleet, and every state it puts on air against the controller \
            --dry-run assumes (extended advertising, 16 sets); it prints "FILE: OK (scenario: \
            N changes per pass over M beacons)".

            --json prints one object instead: {"ok": true|false, "files": [{"file", "ok", \
            "beacons"}], "issues": [{"file", "line", "column", "field", "value", "message"}], \
            "unreadable": [{"file", "error"}]}, with the same exit status.

            Examples:
              beacon validate profiles/*.yaml
              beacon validate scenarios/*.yaml --json
            """
    )

    @Argument(help: ArgumentHelp("Profile files (YAML or JSON); - reads standard input.", valueName: "file"), completion: .file())
    var files: [String]

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one profile file") }
    }

    mutating func run() async throws {
        let scenarioFiles = files.filter(Self.isScenarioFile)
        let profiles = files.filter { !scenarioFiles.contains($0) }
        let scenarios = scenarioFiles.map(Self.checkScenario)
        // A file that cannot be read is reported, and the others are still checked: every
        // problem of every file in one run.
        var unreadable = profiles.compactMap { path in InputPath.problem(path).map { (path: path, problem: $0) } }
        let readable = profiles.filter { path in !unreadable.contains { $0.path == path } }
        let outcome: ProfileFiles.Outcome = readable.isEmpty ? .fleets([]) : ProfileFiles.check(readable)
        let clean = Self.cleanFiles(readable, outcome)
        var issues: [ProfileIssue] = []
        if case .issues(let found) = outcome { issues = found }
        if case .unreadable(let problems) = outcome { unreadable += problems }
        issues += scenarios.flatMap(\.issues)
        // In reading order: the files as named on the command line, each by line and column
        // (a scenario's fleet file right after the files named).
        issues = issues.inReadingOrder(files: files.map { $0 == "-" ? ProfileLoader.standardInputLabel : $0 })
        unreadable += scenarios.compactMap { s in s.unreadable.map { (path: s.file, problem: $0) } }
        unreadable.sort { a, b in (files.firstIndex(of: a.path) ?? files.count) < (files.firstIndex(of: b.path) ?? files.count) }
        if json {
            LineOutput.out(Self.json(issues: issues, unreadable: unreadable, clean: clean, scenarios: scenarios).text)
        } else {
            for (file, count) in clean {
                LineOutput.out("\(file.escapingControlCharacters): OK (\(count) \(count == 1 ? "beacon" : "beacons"))")
            }
            for s in scenarios {
                if let c = s.counts {
                    LineOutput.out("\(s.file.escapingControlCharacters): OK (scenario: \(c.changes) \(c.changes == 1 ? "change" : "changes") per pass over \(c.beacons) \(c.beacons == 1 ? "beacon" : "beacons"))")
                }
            }
            for issue in issues { LineOutput.err(issue.description) }
            for (path, problem) in unreadable { LineOutput.err("error: \(InputPath.label(path)): \(problem)") }
        }
        if !unreadable.isEmpty { throw ExitStatus.runtimeFailure }
        if !issues.isEmpty { throw ExitStatus.dataError }
    }

    /// The files with no issue of their own, and how many beacons each defines.
    static func cleanFiles(_ files: [String], _ outcome: ProfileFiles.Outcome) -> [(file: String, beacons: Int)] {
        switch outcome {
        case .fleets(let fleets):
            return zip(files, fleets).map { ($0, $1.beacons.count) }
        case .unreadable:
            return []
        case .issues(let issues):
            let blamed = Set(issues.map(\.location.file))
            return files.compactMap { file in
                let label = file == "-" ? ProfileLoader.standardInputLabel : file
                guard !blamed.contains(label), let fleet = try? ProfileLoader.load(paths: [file]).first else { return nil }
                return (file, fleet.beacons.count)
            }
        }
    }

    static func json(issues: [ProfileIssue], unreadable: [(path: String, problem: String)], clean: [(file: String, beacons: Int)],
                     scenarios: [ScenarioCheck] = []) -> JSONValue {
        var files: [JSONValue] = clean.map { .object([("file", .string($0.file)), ("ok", .bool(true)), ("beacons", .int($0.beacons))]) }
        files += scenarios.compactMap { s in
            s.counts.map { .object([("file", .string(s.file)), ("ok", .bool(true)), ("beacons", .int($0.beacons)), ("scenario", .bool(true))]) }
        }
        let issueObjects: [JSONValue] = issues.map { issue in
            .object([("file", .string(issue.location.file)), ("line", .int(issue.location.line)),
                     ("column", .int(issue.location.column)), ("field", .string(issue.field)),
                     ("value", .string(issue.value)), ("message", .string(issue.message))])
        }
        let unreadableObjects: [JSONValue] = unreadable.map { .object([("file", .string($0.path)), ("error", .string($0.problem))]) }
        let ok = issues.isEmpty && unreadable.isEmpty
        return .object([("ok", .bool(ok)), ("files", .array(files)), ("issues", .array(issueObjects)), ("unreadable", .array(unreadableObjects))])
    }
}
