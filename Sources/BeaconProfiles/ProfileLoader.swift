// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
        let (fleet, declarations, issues, _) = read(text, file: file)
        guard issues.isEmpty else { throw ProfileErrors(issues: issues) }
        return BeaconFleet(file: fleet.file, name: fleet.name, beacons: declarations.map(\.profile), air: fleet.air, areas: fleet.areas,
                           receiverHeight: fleet.receiverHeight)
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
    ///
    /// `accepting`: the kinds of file read (a reload reads regular files only).
    public static func load(paths: [String], extra: [BeaconProfile] = [], accepting: Accepting = .regularFilesAndPipes) throws(ProfileErrors) -> [BeaconFleet] {
        var fleets: [BeaconFleet] = []
        var issues: [ProfileIssue] = []
        var across = DuplicateCheck(checksNames: false)
        var acrossSink = IssueSink(file: "")
        for (source, path) in paths.enumerated() {
            let text: String
            switch readText(path, accepting: accepting) {
            case .success(let contents): text = contents
            case .failure(let issue):
                issues.append(issue)
                continue
            }
            let (fleet, declarations, fileIssues, _) = read(text, file: path == "-" ? standardInputLabel : path)
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
        // Each clash across files is reported in the later file: in reading order, among its issues.
        guard issues.isEmpty else { throw ProfileErrors(issues: issues.inReadingOrder(files: paths.map { $0 == "-" ? standardInputLabel : $0 })) }
        return fleets
    }

    /// Composes and reads `text`; the fleet is only meaningful when there are no issues, the
    /// declarations serve duplicate checks either way.
    /// `namesComplete`: every entry could be read far enough to name its beacons.
    static func read(_ text: String, file: String) -> (BeaconFleet, [BeaconDeclaration], [ProfileIssue], namesComplete: Bool) {
        let reader = ProfileReader(file: file)
        if let issue = sizeIssue(bytes: text.utf8.count, file: file) {
            return (BeaconFleet(file: file, beacons: []), [], [issue], false)
        }
        let root: Node?
        do throws(DocumentRefused) { root = try reader.sink.compose(text) } catch {
            return (BeaconFleet(file: file, beacons: []), [], reader.sink.sortedIssues, false)
        }
        let contents = reader.readDocument(root, fileStem: fileStem(file))
        var duplicates = DuplicateCheck(checksNames: true)
        for declaration in contents.declarations {
            duplicates.add(declaration, to: &reader.sink)
        }
        let issues = reader.sink.sortedIssues
        let fleet = BeaconFleet(file: file, name: contents.fleetName,
                                beacons: issues.isEmpty ? contents.declarations.map(\.profile) : [], air: contents.air,
                                areas: contents.areas, receiverHeight: contents.receiverHeight)
        // The declarations even of a file with issues (the entries whose names and identities
        // could be read), so that clashes across files are found in the same run.
        return (fleet, contents.declarations, issues, contents.namesComplete)
    }

    /// One file for a scenario's `fleet:`: the fleet when it has no issues, else its issues,
    /// and either way the names of its beacons when every entry could be read far enough to
    /// name them (so a scenario's steps are checked against them in the same run).
    ///
    /// Named inside a file, not on a command line: a regular file only (a FIFO there would wait
    /// for a writer with nothing to say why).
    static func readFleet(path: String) -> (fleet: BeaconFleet?, names: [String]?, issues: [ProfileIssue]) {
        let text: String
        switch readText(path, accepting: .regularFiles) {
        case .success(let contents): text = contents
        case .failure(let issue): return (nil, nil, [issue])
        }
        let (fleet, declarations, issues, complete) = read(text, file: path)
        return (issues.isEmpty ? fleet : nil, complete ? declarations.map(\.profile.name) : nil, issues)
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

    /// Which kinds of file a read accepts; whatever else is refused at once, before a byte is read.
    public enum Accepting: Sendable {
        /// Regular files only: a reload on SIGHUP, a scenario's `fleet:` file, the scenario
        /// sniffing of `validate` (a pipe could be read only once, and a FIFO nobody writes to
        /// would block the run).
        case regularFiles
        /// Regular files and pipes (a FIFO, or `<(cat FILE)`): the files named on a command line.
        case regularFilesAndPipes
        /// Anything that can be read: standard input (`-`), whatever it is.
        case anything
    }

    /// The file's text, or an issue saying why it cannot be had. At most one byte past
    /// ``maximumFileSize`` is read, so an endless pipe is refused, not swallowed.
    package static func readText(_ path: String, accepting: Accepting = .regularFilesAndPipes) -> Result<String, ProfileIssue> {
        if path == "-" { return standardInputText }
        return readText(path, label: path, accepting: accepting)
    }

    /// How issues name standard input (`-`); also the stem of its beacons' default names.
    public static let standardInputLabel = "stdin"

    /// Standard input, read once per process: naming `-` again (or a reload) sees the same text.
    /// Read through descriptor 0 itself: opening /dev/stdin anew would, for a named FIFO behind
    /// it, wait for a writer that may already have come and gone.
    static let standardInputText: Result<String, ProfileIssue> = readText(descriptor: system.duplicate(0), label: standardInputLabel, accepting: .anything)

    /// Every file is read through the system-call seam.
    private static let system = LiveSystemCalls()

    static func readText(_ path: String, label: String, accepting: Accepting) -> Result<String, ProfileIssue> {
        // What the path names is looked at before it is opened: opening a FIFO, even to refuse
        // it, releases a writer waiting in its own open, which then writes into a pipe that is
        // closed under it (a sniff for scenarios once cost the real read its only writer).
        let namedKind: mode_t? = try? system.status(path, followingLinks: true).get().st_mode & S_IFMT
        if let namedKind, let refusal = refusal(namedKind, accepting: accepting) { return failure(refusal, label: label) }
        // A FIFO is then opened as any reader of a pipe opens it, waiting until a writer has it
        // open (a writer already waiting is released by ours): one open, so a writer that writes
        // everything and closes at once is never missed. Anything else is opened O_NONBLOCK, so
        // what took a FIFO's place meanwhile cannot block; fstat then tells what was opened.
        let waitsForWriter = namedKind == S_IFIFO
        let flags = O_RDONLY | O_CLOEXEC | (waitsForWriter ? 0 : O_NONBLOCK)
        return readText(descriptor: system.open(path, flags: flags, mode: 0, relativeTo: AT_FDCWD), label: label, accepting: accepting)
    }

    private static func failure(_ message: String, label: String) -> Result<String, ProfileIssue> {
        .failure(ProfileIssue(location: SourceLocation(file: label, line: 1, column: 1), field: "file", value: label, message: message))
    }

    /// Why a file of `kind` is not read here, or nil when it is.
    private static func refusal(_ kind: mode_t, accepting: Accepting) -> String? {
        switch kind {
        case S_IFREG: return nil
        case S_IFDIR: return "cannot read: it is a directory"
        // A pipe named on the command line, or standard input.
        case S_IFIFO where accepting != .regularFiles: return nil
        case _ where accepting == .anything: return nil
        default:
            let what = kind == S_IFIFO ? "a FIFO (named pipe)" : kind == S_IFCHR ? "a character device" : kind == S_IFBLK ? "a block device" : kind == S_IFSOCK ? "a socket" : "not a regular file"
            return accepting == .regularFiles
                ? "cannot read: it is \(what); a reload, or a file named inside another file, reads regular files only (a FIFO would wait for a writer)"
                : "cannot read: it is \(what); a profile or scenario is a regular file, a pipe, or - for standard input"
        }
    }

    /// Reads the text behind the descriptor opened (closed at the end), or says why it was not opened.
    private static func readText(descriptor opened: Result<Int32, Errno>, label: String, accepting: Accepting) -> Result<String, ProfileIssue> {
        func failure(_ message: String) -> Result<String, ProfileIssue> { Self.failure(message, label: label) }
        let fd: Int32
        switch opened {
        case .success(let descriptor): fd = descriptor
        case .failure(let error): return failure(openProblem(error))
        }
        defer { system.close(fd) }
        let info: stat
        switch system.status(of: fd) {
        case .success(let status): info = status
        case .failure(let error): return failure("cannot read: \(error)")
        }
        if let refusal = refusal(info.st_mode & S_IFMT, accepting: accepting) { return failure(refusal) }
        // A descriptor someone made non-blocking (a terminal or pipe on standard input) is waited
        // on by the seam's read-all rather than given up.
        let data: [UInt8]
        switch system.readAll(fd, limit: maximumFileSize) {
        case .success(let bytes): data = bytes
        case .failure(let error): return failure("cannot read: \(error)")
        }
        if let issue = sizeIssue(bytes: data.count, file: label) { return .failure(issue) }
        guard let text = String(validating: data, as: UTF8.self) else {
            // Read, but wrong: a data error like any issue in the text, not an unreadable file.
            return failure("is not UTF-8 text; profiles and scenarios are UTF-8 (YAML or JSON)")
        }
        return .success(text)
    }

    /// Why open(2) failed, in the words the issues use.
    private static func openProblem(_ error: Errno) -> String {
        switch error {
        case .noSuchFile: "cannot read: no such file"
        case .permissionDenied: "cannot read: permission denied"
        // What open(2) says of a socket (and of a device with no driver behind it).
        case Errno(rawValue: ENXIO): "cannot read: it is a socket or a device, not a regular file"
        default: "cannot read: \(error)"
        }
    }
}
