// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// Every subcommand's `--help` ends with two or three examples, and they run as DocsRunTests runs
/// the docs' commands (exit 0; on the virtual air or offline, or named in its exclusion table).
@Suite(.serialized) struct HelpExamplesTests {
    /// The `beacon …` lines of the EXAMPLES part that ends a help text; nil when the help does
    /// not end with one.
    static func examples(inHelp help: String) -> [String]? {
        let lines = help.components(separatedBy: "\n").filter { !$0.isEmpty }
        guard let start = lines.lastIndex(of: "EXAMPLES:"),
              lines[(start + 1)...].allSatisfy({ $0.hasPrefix("  beacon ") }) else { return nil }
        return lines[(start + 1)...].map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Each subcommand with the examples its help ends with (nil: none) and the help itself.
    static func allExamples() throws -> [(command: String, examples: [String], help: ProgramOutput)] {
        try ManPageAndServiceTests.optionsByCommand().map(\.command).map { name in
            let help = try BeaconExecutable.run([name, "--help"])
            return (name, Self.examples(inHelp: help.stdout) ?? [], help)
        }
    }

    /// `beacon --help`'s EXAMPLES (the man page's EXAMPLES section) run as one block: the
    /// advertiser of "terminal 1" in the background, the scan hearing it.
    @Test func theRootHelpsExamplesRun() async throws {
        let help = try BeaconExecutable.run(["--help"])
        let lines = help.stdout.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "EXAMPLES"), "beacon --help has no EXAMPLES\n\(help.stdout)")
        let examples = lines[(start + 1)...].prefix { $0.hasPrefix(" ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("beacon ") }
        #expect(examples.count >= 3, "\(examples)")
        let runner = try DocCommandRunner()
        for example in examples {
            var command = DocCommand(file: "beacon --help", line: 0, text: example)
            // The advertiser is on air before the scan starts, and the scan hears it.
            if example.hasPrefix("beacon advertise") { command.expectedLines = ["room-south on air"] }
            if example.hasPrefix("beacon scan") { command.expectedLines = ["\"minor\":3"] }
            #expect(DocsRunTests.verdict(example) == .run, "\(command): the root's examples all run here")
            try await runner.run(command)
        }
        await runner.finish()
    }

    @Test func everySubcommandsHelpEndsWithExamplesThatRun() async throws {
        let commands = try Self.allExamples()
        #expect(commands.count >= 13, "\(commands.map(\.command))")
        for (name, examples, help) in commands {
            #expect(help.status == 0, "\(name) --help: \(help)")
            guard !examples.isEmpty else {
                Issue.record("beacon \(name) --help does not end with EXAMPLES: and beacon lines\n\(help.stdout)")
                continue
            }
            #expect((2...3).contains(examples.count), "beacon \(name) --help: \(examples.count) examples: \(examples)")
            #expect(examples.allSatisfy { ($0 + " ").hasPrefix("beacon \(name) ") || $0.contains("| beacon \(name)") },
                    "beacon \(name) --help shows examples of another command: \(examples)")
            let runner = try DocCommandRunner()
            for example in examples {
                let command = DocCommand(file: "beacon \(name) --help", line: 0, text: example)
                switch DocsRunTests.verdict(example) {
                case .run: try await runner.run(command)
                case .excluded: continue
                case .unknown: Issue.record("\(command): neither runs here nor is excluded")
                }
            }
            await runner.finish()
        }
    }
}
