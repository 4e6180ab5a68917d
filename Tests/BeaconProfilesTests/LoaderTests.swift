// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
@testable import BeaconProfiles

@Suite struct LoaderTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    /// A fresh directory for files this test writes.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func unreadableFilesAreIssues() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("nope.yaml").path
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.load(contentsOf: missing) }
        #expect(error.description == "\(missing):1:1: file: \(missing): cannot read: no such file")

        let binary = directory.appendingPathComponent("binary.yaml")
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: binary)
        let both = try #require(throws: ProfileErrors.self) { try ProfileLoader.load(paths: [missing, directory.path, binary.path]) }
        #expect(both.issues.map(\.field) == ["file", "file", "file"])
        #expect(both.issues[1].message.contains("directory"))
        #expect(both.issues[2].message.contains("UTF-8"))
    }

    /// A file name or value holding a newline or ESC must not forge a second issue line nor
    /// reach the terminal raw: every issue prints as one line with the characters escaped.
    @Test func controlCharactersAreEscapedInEveryIssueLine() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "evil\nforged.yaml:1:1: uuid: x: \u{1B}[31mred.yaml"
        let path = directory.appendingPathComponent(name).path
        try Data("uuid: \(Self.uuid)\nmajor: 1\nminor: 1\nname: \"a\\tb\\u001B\"\n\"bad\\u001Bkey\": 1\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.load(contentsOf: path) }
        #expect(error.issues.count == 2, "\(error)")
        for issue in error.issues {
            let line = issue.description
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line)")
            #expect(line.hasPrefix(directory.path + "/evil\\nforged.yaml:1:1: uuid: x: \\u{1B}[31mred.yaml:"), "\(line)")
        }
        #expect(error.description.split(separator: "\n").count == 2)
        #expect(error.issues.contains { $0.description.contains("name: \"a\\tb\\u{1B}\":") })
        #expect(error.issues.contains { $0.description.contains("bad\\u{1B}key") })
    }

    /// A file past 4 MiB is refused before it is parsed, and reading stops there: a pipe that
    /// brings more is refused too, not swallowed; a device such as /dev/zero is not read at all.
    @Test func filesPastTheSizeLimitAreRefusedUnread() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = "# \(String(repeating: "x", count: 97))\n"
        let text = "uuid: \(Self.uuid)\nmajor: 1\nminor: 1\n" + String(repeating: line, count: ProfileLoader.maximumFileSize / line.utf8.count + 1)
        let path = directory.appendingPathComponent("huge.yaml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        // A pipe that brings one byte more than the limit (then ends, so the writer never waits).
        let pipe = Pipe()
        let writer = Thread { [text] in
            pipe.fileHandleForWriting.write(Data(text.utf8.prefix(ProfileLoader.maximumFileSize + 1)))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let piped = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        for error in [try #require(throws: ProfileErrors.self) { try ProfileLoader.load(contentsOf: path) },
                      try #require(throws: ProfileErrors.self) { try ProfileLoader.parse(text, file: path) },
                      try #require(throws: ProfileErrors.self) { try ProfileLoader.load(contentsOf: piped) }] {
            #expect(error.issues.count == 1)
            #expect(error.issues.first?.field == "file")
            #expect(error.issues.first?.message.contains("at most 4194304 bytes") == true, "\(error)")
        }
        let device = try #require(throws: ProfileErrors.self) { try ProfileLoader.load(contentsOf: "/dev/zero") }
        #expect(device.issues.map(\.message) == ["cannot read: it is a character device; a profile or scenario is a regular file, a pipe, or - for standard input"])
        #expect(device.issues.allSatisfy { $0.isUnreadableFile })
        // Just under the limit is fine.
        let fits = String(text.utf8.prefix(ProfileLoader.maximumFileSize))!
        #expect(try ProfileLoader.parse(String(fits[..<fits.lastIndex(of: "\n")!]), file: path).beacons.count == 1)
    }

    /// Aliases are counted before the document is built: nested lists standing for 10^9 nodes,
    /// used as a mapping key (which Yams would hash at its full size while composing) or as a
    /// value, are refused at once at the alias that goes past the limit.
    @Test func aliasesPastTheLimitAreRefusedBeforeTheDocumentIsBuilt() throws {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 { text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        for tail in ["k: {? *a8 : 1}\n", "name: *a8\n"] {
            let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.parse(text + tail, file: "bomb.yaml") }
            #expect(error.issues.count == 1, "\(error)")
            let issue = try #require(error.issues.first)
            #expect(issue.field == "yaml" && issue.value == "more than \(YAMLExpansion.maximumAliasedNodes) nodes", "\(issue)")
            #expect(issue.message.hasPrefix("YAML aliases may repeat at most 1000000 nodes in all"), "\(issue)")
            // a4 holds 111,111 nodes and the lines before a5 repeat 123,440: the eighth use of
            // a4 in a5 (line 6) is the one that goes past 1,000,000.
            #expect(issue.location.line == 6, "\(issue)")
        }
        // Aliases within the limit are read as written.
        let shared = try ProfileLoader.parse("beacons: [{uuid: \(Self.uuid), major: &m 5, minor: 1}, {uuid: \(Self.uuid), major: *m, minor: 2}]\n", file: "ok.yaml")
        #expect(shared.beacons.map { $0.iBeacon?.major } == [5, 5])
    }

    /// A UTF-8 byte order mark (what Windows editors write) is not part of the document.
    @Test func aByteOrderMarkIsSkipped() throws {
        let text = "\u{FEFF}name: door\nuuid: \(Self.uuid)\nmajor: 1\nminor: 1\n"
        #expect(try ProfileLoader.parse(text, file: "bom.yaml").beacons.map(\.name) == ["door"])
        let scenario = "\u{FEFF}fleet: {beacons: [{name: door, uuid: \(Self.uuid), major: 1, minor: 1}]}\nsteps: [{at: 1, hide: door}]\n"
        #expect(try ScenarioLoader.parse(scenario, file: "bom.yaml").steps.count == 1)
        // Line and column of an issue are those of the file.
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.parse("\u{FEFF}name: door\nuuid: \(Self.uuid)\nmajor: 70000\nminor: 1\n", file: "bom.yaml") }
        #expect(error.issues.map { "\($0.location.line):\($0.location.column) \($0.field)" } == ["3:8 major"])
    }

    @Test func loadingSeveralFilesReportsEveryFileAndCrossFileClashes() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let a = try write("a.yaml", "name: door\nuuid: \(Self.uuid)\nmajor: 1\nminor: 1\naddress: C0:00:00:00:00:01\n")
        // Same identity as a.yaml (other address), and a.yaml's address (other identity).
        let b = try write("b.yaml", """
            defaults: {uuid: \(Self.uuid), major: 1}
            beacons:
              - {name: door, minor: 1, address: "C0:00:00:00:00:02"}
              - {minor: 2, address: "C0:00:00:00:00:01"}
            """)
        let c = try write("c.yaml", "uuid: \(Self.uuid)\nmajor: 99999\nminor: 1\n")
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.load(paths: [a, b, c]) }
        let summary = error.issues.map { "\(($0.location.file as NSString).lastPathComponent):\($0.location.line):\($0.location.column) \($0.field)" }
        // The same name in two files is fine; names are unique per fleet.
        #expect(summary.sorted() == ["b.yaml:3:5 identity", "b.yaml:4:25 address", "c.yaml:2:8 major"].sorted())
        #expect(error.issues.first { $0.field == "identity" }?.message.contains("a.yaml:1:1") == true)

        // Without the bad file and with distinct beacons, all fleets come back in order.
        let d = try write("d.yaml", "uuid: \(Self.uuid)\nmajor: 2\nminor: 1\n")
        let fleets = try ProfileLoader.load(paths: [a, d])
        #expect(fleets.map { ($0.file as NSString).lastPathComponent } == ["a.yaml", "d.yaml"])
        #expect(fleets.map(\.beacons.count) == [1, 1])

        // The same file twice would advertise every beacon twice. (Its derived address clashes
        // too, but that follows from the identity and is not reported separately.)
        let twice = try #require(throws: ProfileErrors.self) { try ProfileLoader.load(paths: [d, d]) }
        #expect(twice.issues.map(\.field) == ["identity"])
        #expect(twice.issues.first?.location.file == d)
    }

    @Test func syntaxErrorsHaveAPosition() throws {
        let yaml = "uuid: \(Self.uuid)\nmajor: 1\n  minor: 1\n"
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.parse(yaml, file: "s.yaml") }
        let issue = try #require(error.issues.first)
        #expect(error.issues.count == 1)
        #expect(issue.field == "yaml")
        #expect(issue.location.line == 3)
        #expect(issue.message.hasPrefix("YAML syntax error: "))
    }

    @Test func twoDocumentsAreAnError() throws {
        let yaml = "uuid: \(Self.uuid)\nmajor: 1\nminor: 1\n---\nuuid: \(Self.uuid)\nmajor: 1\nminor: 2\n"
        let error = try #require(throws: ProfileErrors.self) { try ProfileLoader.parse(yaml, file: "two.yaml") }
        #expect(error.issues.map(\.field) == ["yaml"])
        #expect(error.issues.first?.location.line == 4)
    }

    @Test func fileStemNamesDefaultBeacons() {
        #expect(ProfileLoader.fileStem("profiles/room-2m.yaml") == "room-2m")
        #expect(ProfileLoader.fileStem("a/b.c/hall.profile.json") == "hall")
        #expect(ProfileLoader.fileStem("") == "beacon")
    }
}
