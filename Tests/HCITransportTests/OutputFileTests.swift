// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import HCITransport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real system calls, except that `write` (or `rename`) fails with `error`: a full disk or an
/// I/O error on demand.
struct DiskFailingSystemCalls: SystemCalls {
    var error: Errno
    var failsRename = false
    let live = LiveSystemCalls()
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> { live.read(fd, into: buffer) }
    func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        failsRename ? live.write(fd, from: buffer) : .failure(error)
    }
    func pollReadable(_ fd: Int32, milliseconds: Int32) -> Result<Bool, Errno> { live.pollReadable(fd, milliseconds: milliseconds) }
    func close(_ fd: Int32) { live.close(fd) }
    func shutdown(_ fd: Int32) { live.shutdown(fd) }
    func rename(_ from: String, to: String, relativeTo directory: Int32) -> Result<Void, Errno> {
        failsRename ? .failure(error) : live.rename(from, to: to, relativeTo: directory)
    }
}

/// The real system calls, except that changing an owner is not permitted (as for a user other
/// than root).
struct OwnerRefusingSystemCalls: SystemCalls {
    let live = LiveSystemCalls()
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> { live.read(fd, into: buffer) }
    func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> { live.write(fd, from: buffer) }
    func pollReadable(_ fd: Int32, milliseconds: Int32) -> Result<Bool, Errno> { live.pollReadable(fd, milliseconds: milliseconds) }
    func close(_ fd: Int32) { live.close(fd) }
    func shutdown(_ fd: Int32) { live.shutdown(fd) }
    func changeOwner(_ fd: Int32, user: uid_t, group: gid_t) -> Result<Void, Errno> { .failure(Errno(rawValue: EPERM)) }
}

/// Every output file (`--save` whole, `--air-log` and `--btsnoop` streaming) is a regular file,
/// never reached through a link, never a FIFO or device; a replaced file keeps its mode and
/// owner; a failure names the file and the error and leaves what was there.
@Suite struct OutputFileTests {
    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : 0
    }

    static func names(in directory: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

    /// Both kinds of output, so every refusal is checked for both.
    static func openBoth(_ path: String) -> [OutputFileError?] {
        var out: [OutputFileError?] = []
        do throws(OutputFileError) { _ = try StreamingOutputFile(path: path); out.append(nil) } catch { out.append(error) }
        do throws(OutputFileError) { try AtomicOutputFile.write(Array("new\n".utf8), to: path); out.append(nil) } catch { out.append(error) }
        do throws(OutputFileError) { try AtomicOutputFile.check(path); out.append(nil) } catch { out.append(error) }
        return out
    }

    @Test func aFIFOIsRefusedAtOnceAndLeftAFIFO() throws {
        let fifo = try Self.directory() + "/pipe"
        try #require(mkfifo(fifo, 0o600) == 0)
        // No reader: an open that waited for one would never return.
        for error in Self.openBoth(fifo) { #expect(error == .notARegularFile(path: fifo, kind: "a FIFO")) }
        #expect(Self.mode(fifo) & S_IFMT == S_IFIFO)
    }

    @Test(arguments: [("/dev/full", "a character device"), ("/dev/null", "a character device")])
    func aDeviceIsRefusedAndLeftADevice(path: String, kind: String) {
        for error in Self.openBoth(path) { #expect(error == .notARegularFile(path: path, kind: kind)) }
        #expect(Self.mode(path) & S_IFMT == S_IFCHR)
    }

    @Test func aDirectoryAndASocketAreRefused() throws {
        let dir = try Self.directory()
        for error in Self.openBoth(dir) { #expect(error == .notARegularFile(path: dir, kind: "a directory")) }
        let socketPath = dir + "/s.sock"
        try #require(StaleSocket.create(at: socketPath))
        for error in Self.openBoth(socketPath) { #expect(error == .notARegularFile(path: socketPath, kind: "a socket")) }
        #expect(Self.mode(socketPath) & S_IFMT == S_IFSOCK)
    }

    @Test func aSymbolicLinkIsNeverFollowedNorReplaced() throws {
        let dir = try Self.directory()
        let target = dir + "/target.yaml", link = dir + "/link.yaml"
        try "keep\n".write(toFile: target, atomically: false, encoding: .utf8)
        try #require(symlink(target, link) == 0)
        for error in Self.openBoth(link) {
            #expect(error == .symbolicLink(path: link, target: target))
            #expect(error?.description.contains("O_NOFOLLOW") == true)
        }
        #expect(Self.mode(link) & S_IFMT == S_IFLNK)
        #expect(Self.contents(target) == "keep\n")
        // A dangling link too: following it would create a file wherever it points.
        let dangling = dir + "/dangling"
        try #require(symlink(dir + "/nowhere", dangling) == 0)
        for error in Self.openBoth(dangling) { #expect(error == .symbolicLink(path: dangling, target: dir + "/nowhere")) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
    }

    @Test func aMissingFolderIsNamed() throws {
        let dir = try Self.directory()
        let path = dir + "/no/such/fleet.yaml"
        for error in Self.openBoth(path) {
            #expect(error == .missingFolder(path: path, folder: dir + "/no/such"))
            #expect(error?.description == "cannot write \(path): the folder \(dir)/no/such does not exist")
        }
        let file = dir + "/plain"
        try "x".write(toFile: file, atomically: false, encoding: .utf8)
        for error in Self.openBoth(file + "/fleet.yaml") { #expect(error == .notAFolder(path: file + "/fleet.yaml", folder: file)) }
    }

    @Test func aReplacedFileKeepsItsModeAndOwnerAndNothingElseIsLeft() throws {
        let dir = try Self.directory()
        let path = dir + "/fleet.yaml"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chmod(path, 0o600) == 0)
        let nobody: uid_t = 65534
        let asRoot = geteuid() == 0
        if asRoot { try #require(chown(path, nobody, gid_t(nobody)) == 0) }
        try AtomicOutputFile.write(Array("new\n".utf8), to: path)
        #expect(Self.contents(path) == "new\n")
        var info = stat()
        try #require(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(info.st_mode & S_IFMT == S_IFREG)
        if asRoot { #expect(info.st_uid == nobody && info.st_gid == gid_t(nobody)) }
        #expect(Self.names(in: dir) == ["fleet.yaml"], "no temporary file left")
    }

    /// A replacement that cannot be given the old file's owner replaces nothing.
    @Test(.enabled(if: geteuid() == 0, "needs root to give the file to another user"))
    func anOwnerThatCannotBeKeptLeavesTheFile() throws {
        let dir = try Self.directory()
        let path = dir + "/fleet.yaml"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chown(path, 65534, 65534) == 0)
        #expect(throws: OutputFileError.cannotKeepOwner(path: path, errno: Errno(rawValue: EPERM))) {
            try AtomicOutputFile.write(Array("new\n".utf8), to: path, system: OwnerRefusingSystemCalls())
        }
        #expect(Self.contents(path) == "old\n")
        #expect(Self.names(in: dir) == ["fleet.yaml"])
    }

    /// Links on the way to the folder are followed; the other names of a hard-linked file keep
    /// the old content (the replacement is a new inode).
    @Test func foldersThroughLinksAreFineAndHardLinksKeepTheOldContent() throws {
        let dir = try Self.directory()
        try #require(mkdir(dir + "/real", 0o700) == 0)
        try #require(symlink(dir + "/real", dir + "/via") == 0)
        try "old\n".write(toFile: dir + "/real/fleet.yaml", atomically: false, encoding: .utf8)
        try #require(link(dir + "/real/fleet.yaml", dir + "/other-name.yaml") == 0)
        try AtomicOutputFile.write(Array("new\n".utf8), to: dir + "/via/fleet.yaml")
        #expect(Self.contents(dir + "/real/fleet.yaml") == "new\n")
        #expect(Self.contents(dir + "/other-name.yaml") == "old\n")
    }

    @Test func aNewFileGetsTheUmasksMode() throws {
        let dir = try Self.directory()
        let mask = umask(0o027)
        defer { umask(mask) }
        try AtomicOutputFile.write(Array("new\n".utf8), to: dir + "/a.yaml")
        let streaming = try StreamingOutputFile(path: dir + "/b.log")
        streaming.write(Array("line\n".utf8))
        #expect(Self.mode(dir + "/a.yaml") & 0o7777 == 0o640)
        #expect(Self.mode(dir + "/b.log") & 0o7777 == 0o640)
        #expect(Self.contents(dir + "/b.log") == "line\n")
    }

    @Test(arguments: [(Errno(rawValue: ENOSPC), false), (Errno(rawValue: EIO), true)])
    func aFailedReplaceLeavesTheOldFile(error: Errno, inRename: Bool) throws {
        let dir = try Self.directory()
        let path = dir + "/fleet.yaml"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        let failing = DiskFailingSystemCalls(error: error, failsRename: inRename)
        #expect(throws: OutputFileError.writeFailed(path: path, errno: error)) {
            try AtomicOutputFile.write(Array("new\n".utf8), to: path, system: failing)
        }
        #expect(Self.contents(path) == "old\n")
        #expect(Self.names(in: dir) == ["fleet.yaml"], "the temporary file is removed")
        #expect(OutputFileError.writeFailed(path: path, errno: error).description == "writing \(path) failed: \(String(cString: strerror(error.rawValue)))")
    }

    @Test func aStreamingWriteFailureIsReportedOnceAndWritingStops() throws {
        let path = try Self.directory() + "/air.log"
        let reports = ReportLog()
        let file = try StreamingOutputFile(path: path, system: DiskFailingSystemCalls(error: Errno(rawValue: ENOSPC))) { reports.add($0) }
        for _ in 0..<5 { file.write(Array("air line\n".utf8)) }
        #expect(reports.all == [.writeFailed(path: path, errno: Errno(rawValue: ENOSPC))])
        #expect(file.failure == .writeFailed(path: path, errno: Errno(rawValue: ENOSPC)))
        #expect(reports.all.first?.description.contains("No space left on device") == true)
    }

    @Test func aStreamingFileIsTruncatedInPlaceKeepingItsMode() throws {
        let path = try Self.directory() + "/air.log"
        try String(repeating: "x", count: 1000).write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chmod(path, 0o600) == 0)
        var before = stat()
        try #require(lstat(path, &before) == 0)
        let file = try StreamingOutputFile(path: path, inputs: ["/nonexistent/input.yaml"])
        file.write(Array("one\n".utf8))
        var after = stat()
        try #require(lstat(path, &after) == 0)
        #expect(Self.contents(path) == "one\n")
        #expect(after.st_ino == before.st_ino && after.st_mode & 0o7777 == 0o600)
    }
}

/// The failures a writer reported, in order.
final class ReportLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [OutputFileError] = []
    func add(_ report: OutputFileError) { lock.withLock { reports.append(report) } }
    var all: [OutputFileError] { lock.withLock { reports } }
}
