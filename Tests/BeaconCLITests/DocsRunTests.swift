// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// Docs that run: every command README.md and docs/*.md show in a ```sh block is run here (on
/// the virtual air, or offline) and its exit status and output are checked against what the text
/// says (the `<!-- expect -->` comment after the block, or a transcript's shown lines; see
/// ``DocCommand``), so a change to the tool that makes a document wrong fails this suite. A
/// command that cannot run on a machine without Bluetooth hardware is named, with the reason and
/// where it is tested instead, in ``DocsRunTests/exclusions``; a command that neither runs nor is
/// excluded fails.
@Suite(.serialized) struct DocsRunTests {
    /// Commands the docs show that need more than this test has: the reason, and what tests them.
    struct Exclusion: Sendable {
        var pattern: String
        var reason: String
    }

    static let exclusions: [Exclusion] = [
        Exclusion(pattern: #"-i +(hci|raw:|user:|mgmt:|serial:|all\b|[0-9])"#,
                  reason: "a kernel adapter or a UART: the machines CI runs on have no Bluetooth in their kernel; scripts/kernel-test runs these under QEMU with btvirt"),
        Exclusion(pattern: #"^beacon (adapters|doctor|stop)\b(?!.*-i +virtual)"#,
                  reason: "without -i: the first kernel adapter (none on CI machines); scripts/kernel-test runs these under QEMU"),
        Exclusion(pattern: #"-i +tcp:|bumble_link\.py|--print-venv-bin"#,
                  reason: "a pair of Bumble controllers over TCP (Tests/Harness/bumble_link.py, the test venv); PlaybackIntegrationTests runs these same steps"),
        Exclusion(pattern: #"^(sudo )?scripts/(test|kernel-test|fresh-machine-test|setup|fuzz)\b"#,
                  reason: "the test suite or its set-up (root, minutes, QEMU); it is what runs this test"),
        Exclusion(pattern: #"^scripts/package\b"#,
                  reason: "a release build (minutes) packaged as a .deb; scripts/fresh-machine-test builds it, installs it in a fresh Debian 12 root and runs a site from it"),
        Exclusion(pattern: #"^(swift (run|build|test) --package-path Examples/|scripts/(examples|docs)\b)"#,
                  reason: "builds a package of its own against beacon (minutes); scripts/test runs scripts/examples and scripts/docs, and ExampleProgramTests runs AdvertiseFleet on the virtual air and stops it with SIGINT"),
        Exclusion(pattern: #"^(install|systemctl|journalctl|sudo) "#,
                  reason: "installs into /usr/local and /etc and drives systemd (root); ManPageAndServiceTests verifies the unit"),
        Exclusion(pattern: #"--generate-completion-script +\w+ +>"#,
                  reason: "writes into the system's completion directories (root); ManPageAndServiceTests.completionScripts runs the command itself"),
        Exclusion(pattern: #"^beacon (agent|site)\b(?!.*--plan)"#,
                  reason: "a site's agent or controller: needs a Mosquitto broker with the site's users; AgentTests and ControllerTests (BeaconSiteTests) run both against a test's own Mosquitto, with virtual radios"),
        Exclusion(pattern: #"^beacon play .*--site\b"#,
                  reason: "a scenario across a site: needs a Mosquitto broker and the hosts' agents; PlaySiteTests (BeaconSiteTests) plays one on a test's own Mosquitto with two agents on virtual radios"),
        Exclusion(pattern: #"(broken|fast)\.yaml"#,
                  reason: "a transcript of files the text describes but does not show; BrokenScenarioTests, ValidateScenarioTests and PlaybackCommandTests check these messages"),
    ]

    enum Verdict: Equatable {
        case run
        case excluded(String)
        case unknown
    }

    /// Whether a documented command runs here, is excluded (and why), or neither.
    static func verdict(_ command: String) -> Verdict {
        let line = DocCommandRunner.shellLine(command)
        if let exclusion = exclusions.first(where: { line.range(of: $0.pattern, options: .regularExpression) != nil }) {
            return .excluded(exclusion.reason)
        }
        return line.hasPrefix("beacon ") ? .run : .unknown
    }

    @Test(arguments: DocBlocks.all())
    func theBlockRunsAsTheTextSays(_ block: DocBlock) async throws {
        for problem in block.markupProblems { Issue.record(Comment(rawValue: problem)) }
        let runner = try DocCommandRunner()
        for command in block.commands {
            switch Self.verdict(command.command) {
            case .run: try await runner.run(command)
            case .excluded: continue
            case .unknown:
                Issue.record("\(command): neither runs here (a beacon command, offline or on -i virtual) nor is in DocsRunTests.exclusions")
            }
        }
        await runner.finish()
    }

    /// A command shown outside a ```sh block would be run by nobody.
    @Test func everyCommandBlockIsMarkedSh() throws {
        for document in DocBlocks.documents {
            let text = try String(contentsOfFile: PackageRoot.path(document), encoding: .utf8)
            for fence in DocBlocks.fencedBlocks(in: text) where fence.language != "sh" {
                let commands = fence.body.filter { line in
                    ["beacon ", "scripts/beacon ", "$ beacon "].contains { line.trimmingCharacters(in: .whitespaces).hasPrefix($0) }
                }
                #expect(commands.isEmpty, "\(document):\(fence.line): a block showing commands must be ```sh: \(commands)")
            }
        }
    }

    /// The exclusion table names only what the docs and the help show: each entry excludes some
    /// command.
    @Test func everyExclusionIsUsed() throws {
        let commands = DocBlocks.all().flatMap(\.commands).map { DocCommandRunner.shellLine($0.command) }
            + (try HelpExamplesTests.allExamples()).flatMap(\.examples)
        for exclusion in Self.exclusions {
            #expect(commands.contains { $0.range(of: exclusion.pattern, options: .regularExpression) != nil },
                    "no documented command matches the exclusion \(exclusion.pattern)")
        }
        #expect(DocBlocks.all().flatMap(\.commands).contains { Self.verdict($0.command) == .run })
    }

    /// The parser and the runner themselves: an expectation the tool does not meet is reported.
    @Test func aDocumentedOutputThatChangedFails() async throws {
        let text = """
            ```sh
            beacon list profiles/room-2m.yaml
            ```
            <!-- expect
            1: "room-nowhere"
            -->
            """
        let block = try #require(DocBlocks.blocks(in: text, file: "sample.md").first)
        #expect(block.commands.first?.expectedLines == ["room-nowhere"] && block.markupProblems.isEmpty)
        let runner = try DocCommandRunner()
        await withKnownIssue("the text shows a line the tool does not print") {
            try await runner.run(block.commands[0])
        }
        await runner.finish()
    }
}
