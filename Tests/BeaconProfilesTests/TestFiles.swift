// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import TestSupport

/// Where the tests find the shipped profiles and the fixture corpus.
enum TestFiles {
    static var packageRoot: URL { PackageRoot.url }

    /// `profiles/*.yaml`, sorted.
    static func shippedProfiles() throws -> [URL] {
        let directory = packageRoot.appendingPathComponent("profiles").resolvingSymlinksInPath()
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A shipped profile by file name.
    static func shipped(_ name: String) -> String {
        packageRoot.appendingPathComponent("profiles").appendingPathComponent(name).path
    }

    /// The broken-profile corpus, copied into the test bundle (`resources: [.copy("Fixtures")]`).
    static func brokenFixtures() throws -> [URL] {
        guard let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        let directory = fixtures.appendingPathComponent("broken")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" || $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// One expected issue of a broken fixture: `# expect: LINE:COLUMN FIELD [words in the message]`
/// in the file itself, or `LINE:COLUMN FIELD [...]` lines in a `FILE.expect` sidecar (for JSON,
/// which has no comments).
struct ExpectedIssue: Hashable, CustomStringConvertible {
    var line: Int
    var column: Int
    var field: String
    /// Text the message must contain, if given.
    var messageContains: String?

    var description: String { "\(line):\(column) \(field)" + (messageContains.map { " \"\($0)\"" } ?? "") }

    init?(_ spec: Substring) {
        let words = spec.split(separator: " ", maxSplits: 2)
        guard words.count >= 2 else { return nil }
        let position = words[0].split(separator: ":")
        guard position.count == 2, let line = Int(position[0]), let column = Int(position[1]) else { return nil }
        self.line = line
        self.column = column
        field = String(words[1])
        messageContains = words.count > 2 ? String(words[2]) : nil
    }

    /// The expectations of a fixture file.
    static func all(for file: URL) throws -> [ExpectedIssue] {
        var specs: [Substring] = []
        let text = try String(contentsOf: file, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("# expect: ") {
            specs.append(line.dropFirst("# expect: ".count))
        }
        let sidecar = file.appendingPathExtension("expect")
        if FileManager.default.fileExists(atPath: sidecar.path) {
            specs += try String(contentsOf: sidecar, encoding: .utf8).split(separator: "\n")
        }
        return specs.compactMap(ExpectedIssue.init)
    }
}
