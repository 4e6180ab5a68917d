// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
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
        let outcome = profiles.isEmpty ? .fleets([]) : ProfileFiles.check(profiles)
        let clean = Self.cleanFiles(profiles, outcome)
        if json { LineOutput.out(Self.json(outcome, clean: clean, scenarios: scenarios).text) }
        if !json {
            for (file, count) in clean {
                LineOutput.out("\(file.escapingControlCharacters): OK (\(count) \(count == 1 ? "beacon" : "beacons"))")
            }
            for s in scenarios {
                if let c = s.counts {
                    LineOutput.out("\(s.file.escapingControlCharacters): OK (scenario: \(c.changes) \(c.changes == 1 ? "change" : "changes") per pass over \(c.beacons) \(c.beacons == 1 ? "beacon" : "beacons"))")
                }
                for issue in s.issues { LineOutput.err(issue.description) }
                if let problem = s.unreadable { LineOutput.err("error: \(InputPath.label(s.file)): \(problem)") }
            }
        }
        if case .fleets = outcome, !scenarios.isEmpty {
            if scenarios.contains(where: { $0.unreadable != nil }) { throw ExitStatus.runtimeFailure }
            if scenarios.contains(where: { !$0.issues.isEmpty }) { throw ExitStatus.dataError }
        }
        switch outcome {
        case .fleets:
            return
        case .unreadable(let problems):
            if !json { for (path, problem) in problems { LineOutput.err("error: \(InputPath.label(path)): \(problem)") } }
            throw ExitStatus.runtimeFailure
        case .issues(let issues):
            if !json { for issue in issues { LineOutput.err(issue.description) } }
            throw ExitStatus.dataError
        }
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

    static func json(_ outcome: ProfileFiles.Outcome, clean: [(file: String, beacons: Int)], scenarios: [ScenarioCheck] = []) -> JSONValue {
        var files: [JSONValue] = clean.map { .object([("file", .string($0.file)), ("ok", .bool(true)), ("beacons", .int($0.beacons))]) }
        files += scenarios.compactMap { s in
            s.counts.map { .object([("file", .string(s.file)), ("ok", .bool(true)), ("beacons", .int($0.beacons)), ("scenario", .bool(true))]) }
        }
        var issues: [JSONValue] = []
        var unreadable: [JSONValue] = []
        switch outcome {
        case .fleets:
            break
        case .unreadable(let problems):
            unreadable = problems.map { .object([("file", .string($0.path)), ("error", .string($0.problem))]) }
        case .issues(let found):
            issues = found.map { issue in
                .object([("file", .string(issue.location.file)), ("line", .int(issue.location.line)),
                         ("column", .int(issue.location.column)), ("field", .string(issue.field)),
                         ("value", .string(issue.value)), ("message", .string(issue.message))])
            }
        }
        for s in scenarios {
            issues += s.issues.map { issue in
                .object([("file", .string(issue.location.file)), ("line", .int(issue.location.line)),
                         ("column", .int(issue.location.column)), ("field", .string(issue.field)),
                         ("value", .string(issue.value)), ("message", .string(issue.message))])
            }
            if let problem = s.unreadable { unreadable.append(.object([("file", .string(s.file)), ("error", .string(problem))])) }
        }
        let ok = if case .fleets = outcome { scenarios.allSatisfy { $0.counts != nil } } else { false }
        return .object([("ok", .bool(ok)), ("files", .array(files)), ("issues", .array(issues)), ("unreadable", .array(unreadable))])
    }
}
