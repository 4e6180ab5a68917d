// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// The Mosquitto configuration and ACL have one source, contrib/mosquitto/ (the Debian package
/// installs those files; the fresh-machine test runs a broker with the ACL): docs/SITE.md shows
/// each of them, unchanged, in a block of its own.
@Suite struct MosquittoSnippetTests {
    @Test(arguments: ["beacon.conf", "beacon.acl"])
    func siteMDShowsTheFileAsItIs(_ name: String) throws {
        let file = try String(contentsOfFile: PackageRoot.path("contrib/mosquitto/\(name)"), encoding: .utf8)
        let document = try String(contentsOfFile: PackageRoot.path("docs/SITE.md"), encoding: .utf8)
        let blocks = DocBlocks.fencedBlocks(in: document).filter { $0.language == "conf" }
            .map { $0.body.joined(separator: "\n") + "\n" }
        #expect(blocks.contains(file), "docs/SITE.md has no ```conf block equal to contrib/mosquitto/\(name); copy the file into it")
        // Each block names the file it is, so a reader knows where it goes.
        #expect(document.contains("`contrib/mosquitto/\(name)`"))
    }
}
