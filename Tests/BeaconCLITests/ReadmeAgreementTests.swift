// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// What the README shows agrees with what ships.
@Suite struct ReadmeAgreementTests {
    /// The README's profile snippet defines the same beacons as profiles/room-2m.yaml.
    @Test func profileSnippetIsTheShippedRoom() throws {
        let readme = try String(contentsOf: PackageRoot.url.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let snippet = try #require(blocks.first { $0.hasPrefix("name: room-2m\n") }, "the README has no room-2m snippet")
        let fromReadme = try BeaconExecutable.run(["list", "-", "--json"], stdin: snippet)
        let shipped = try BeaconExecutable.run(["list", PackageRoot.url.appendingPathComponent("profiles/room-2m.yaml").path, "--json"])
        #expect(fromReadme.status == 0 && shipped.status == 0, "\(fromReadme)\n\(shipped)")
        // Everything but where each beacon was declared.
        func beacons(_ out: String) -> [String] {
            out.split(separator: "\n").map { line in
                line.replacingOccurrences(of: #""(file|line|column|location)":("[^"]*"|\d+),?"#, with: "", options: .regularExpression)
            }
        }
        #expect(!beacons(shipped.stdout).isEmpty)
        #expect(beacons(fromReadme.stdout) == beacons(shipped.stdout), "\(fromReadme.stdout)\n\(shipped.stdout)")
    }
}
