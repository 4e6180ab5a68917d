// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
@testable import BeaconProfiles

/// The corpus in Fixtures/broken: each file must be rejected with exactly the issues it
/// declares (line, column, field, and words of the message where given) — no fewer, no more.
@Suite struct BrokenProfileTests {
    @Test func corpusIsLargeEnough() throws {
        let files = try TestFiles.brokenFixtures()
        #expect(files.count >= 25)
        for file in files {
            #expect(try !ExpectedIssue.all(for: file).isEmpty, "\(file.lastPathComponent) declares no expectation")
        }
    }

    @Test(arguments: try TestFiles.brokenFixtures())
    func rejectedWithTheRightIssues(file: URL) throws {
        let expected = try ExpectedIssue.all(for: file)
        do {
            let fleet = try ProfileLoader.load(contentsOf: file.path)
            Issue.record("\(file.lastPathComponent) was accepted: \(fleet.beacons.count) beacon(s)")
        } catch {
            let issues = error.issues
            #expect(issues.count == expected.count, "\(file.lastPathComponent):\n\(error)")
            for expectation in expected {
                let match = issues.first { issue in
                    issue.location.line == expectation.line && issue.location.column == expectation.column
                        && issue.field == expectation.field
                        && (expectation.messageContains.map { issue.message.contains($0) } ?? true)
                }
                #expect(match != nil, "\(file.lastPathComponent): expected \(expectation), got:\n\(error)")
            }
            for issue in issues {
                #expect(issue.location.file == file.path)
                #expect(issue.description.hasPrefix("\(file.path):\(issue.location.line):\(issue.location.column): \(issue.field): "))
            }
        }
    }
}
