// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Yams

/// Reads profile files (YAML, or JSON, which YAML includes) into validated beacons. Every problem
/// is collected and thrown together as ``ProfileErrors``, each with its file, line and column.
/// docs/PROFILES.md describes the format.
public enum ProfileLoader {
    /// The largest profile file, in bytes (4 MiB: some 40,000 beacons written one per line;
    /// ranges declare more in a line). Composing YAML costs about 40 bytes of memory per byte of
    /// text, and a fleet is meant to be read in a second or two, not a minute; a bigger file is
    /// refused before it is parsed. Larger fleets are split into several files.
    public static let maximumFileSize = 4 << 20
    /// The most beacons one file may declare, ranges expanded (every minor of one major); see
    /// `ProfileReader.maximumEntrySize` for one entry.
    public static let maximumFleetSize = 65536

    /// Parses the text of one profile file; `file` labels locations and names default beacon names.
    public static func parse(_ text: String, file: String) throws(ProfileErrors) -> BeaconFleet {
        let (fleet, declarations, issues) = read(text, file: file)
        guard issues.isEmpty else { throw ProfileErrors(issues: issues) }
        return BeaconFleet(file: fleet.file, name: fleet.name, beacons: declarations.map(\.profile), air: fleet.air)
    }

    /// Reads and parses one file. A file that cannot be read (missing, a directory, not UTF-8)
    /// is reported as an issue at its line 1, column 1.
    public static func load(contentsOf path: String) throws(ProfileErrors) -> BeaconFleet {
        try load(paths: [path])[0]
    }

    /// Reads several files, reporting the issues of all of them, plus beacons that clash across
    /// files (the same uuid/major/minor, or the same address — so a file named twice clashes with
    /// itself); names only need to be unique within their own file. Returns the fleets in the
    /// order of `paths`.
    ///
    /// `extra` beacons (given on a command line, located there) join as one more source, checked
    /// against the files the same way; they are not in the returned fleets.
    public static func load(paths: [String], extra: [BeaconProfile] = []) throws(ProfileErrors) -> [BeaconFleet] {
        var fleets: [BeaconFleet] = []
        var issues: [ProfileIssue] = []
        var across = DuplicateCheck(checksNames: false)
        var acrossSink = IssueSink(file: "")
        for (source, path) in paths.enumerated() {
            let text: String
            switch readText(path) {
            case .success(let contents): text = contents
            case .failure(let issue):
                issues.append(issue)
                continue
            }
            let (fleet, declarations, fileIssues) = read(text, file: path == "-" ? standardInputLabel : path)
            issues += fileIssues
            for declaration in declarations {
                across.add(declaration, source: source, to: &acrossSink, acrossSourcesOnly: true)
            }
            fleets.append(fleet)
        }
        for beacon in extra {
            let declaration = BeaconDeclaration(profile: beacon, nameLocation: beacon.location, addressLocation: beacon.location)
            across.add(declaration, source: paths.count, to: &acrossSink, acrossSourcesOnly: true)
        }
        issues += acrossSink.issues
        guard issues.isEmpty else { throw ProfileErrors(issues: issues) }
        return fleets
    }

    /// Composes and reads `text`; the fleet is only meaningful when there are no issues.
    static func read(_ text: String, file: String) -> (BeaconFleet, [BeaconDeclaration], [ProfileIssue]) {
        let reader = ProfileReader(file: file)
        if let issue = sizeIssue(bytes: text.utf8.count, file: file) {
            return (BeaconFleet(file: file, beacons: []), [], [issue])
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            reader.sink.reportSyntaxError(error, in: text)
            return (BeaconFleet(file: file, beacons: []), [], reader.sink.sortedIssues)
        }
        let contents = reader.readDocument(root, fileStem: fileStem(file))
        var duplicates = DuplicateCheck(checksNames: true)
        for declaration in contents.declarations {
            duplicates.add(declaration, to: &reader.sink)
        }
        let issues = reader.sink.sortedIssues
        let fleet = BeaconFleet(file: file, name: contents.fleetName,
                                beacons: issues.isEmpty ? contents.declarations.map(\.profile) : [], air: contents.air)
        return (fleet, issues.isEmpty ? contents.declarations : [], issues)
    }

    /// `profiles/room-2m.yaml` → `room-2m`: the prefix of default beacon names.
    static func fileStem(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        let stem = base.split(separator: ".", maxSplits: 1).first.map(String.init) ?? base
        return stem.isEmpty ? "beacon" : stem
    }

    /// The issue of a file past ``maximumFileSize``, if it is.
    static func sizeIssue(bytes: Int, file: String) -> ProfileIssue? {
        guard bytes > maximumFileSize else { return nil }
        let size = bytes > maximumFileSize + 1 ? "\(bytes) bytes" : "more than \(maximumFileSize) bytes"
        return ProfileIssue(location: SourceLocation(file: file, line: 1, column: 1), field: "file", value: size,
                            message: "a profile file may have at most \(maximumFileSize) bytes (4 MiB); split the fleet into several files")
    }

    /// The file's text, or an issue saying why it cannot be had. At most one byte past
    /// ``maximumFileSize`` is read, so `/dev/zero` or an endless pipe is refused, not swallowed.
    static func readText(_ path: String) -> Result<String, ProfileIssue> {
        if path == "-" { return standardInputText }
        return readText(path, label: path)
    }

    /// How issues name standard input (`-`); also the stem of its beacons' default names.
    public static let standardInputLabel = "stdin"

    /// Standard input, read once per process: naming `-` again (or a reload) sees the same text.
    static let standardInputText: Result<String, ProfileIssue> = readText("/dev/stdin", label: standardInputLabel)

    static func readText(_ path: String, label: String) -> Result<String, ProfileIssue> {
        func failure(_ message: String) -> Result<String, ProfileIssue> {
            .failure(ProfileIssue(location: SourceLocation(file: label, line: 1, column: 1), field: "file", value: label, message: message))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return failure("cannot read: no such file")
        }
        if isDirectory.boolValue { return failure("cannot read: it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return failure("cannot read: permission denied or I/O error")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()  // nil: an empty file
        } catch {
            return failure("cannot read: permission denied or I/O error")
        }
        if let issue = sizeIssue(bytes: data.count, file: label) { return .failure(issue) }
        guard let text = String(data: data, encoding: .utf8) else {
            return failure("cannot read: not UTF-8 text")
        }
        return .success(text)
    }
}
