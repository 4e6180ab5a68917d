// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The seam's file calls: links are never followed where `O_NOFOLLOW` says so, and an atomic
/// output replaces a file whole and refuses a link.
@Suite struct SystemCallsFileTests {
    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-system-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test func openWithNoFollowRefusesALink() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "secret\n".write(toFile: folder + "/target", atomically: false, encoding: .utf8)
        #expect(symlink(folder + "/target", folder + "/link") == 0)
        let system = LiveSystemCalls()
        #expect(system.open(folder + "/link", flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) == .failure(Errno(rawValue: ELOOP)))
        // lstat sees the link itself; stat what it points to.
        #expect(try system.status(folder + "/link", followingLinks: false).get().st_mode & S_IFMT == S_IFLNK)
        #expect(try system.status(folder + "/link", followingLinks: true).get().st_mode & S_IFMT == S_IFREG)
        #expect(system.linkTarget(folder + "/link") == folder + "/target")
    }

    @Test func anAtomicOutputRefusesALinkAndLeavesItsTarget() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "kept\n".write(toFile: folder + "/target", atomically: false, encoding: .utf8)
        #expect(symlink(folder + "/target", folder + "/out.yaml") == 0)
        #expect(throws: OutputFileError.symbolicLink(path: folder + "/out.yaml", target: folder + "/target")) {
            try AtomicOutputFile.write(Array("new\n".utf8), to: folder + "/out.yaml")
        }
        #expect(try String(contentsOfFile: folder + "/target", encoding: .utf8) == "kept\n")
    }

    @Test func aDuplicateIsCloseOnExecAndReadsTheSameFile() throws {
        let system = LiveSystemCalls()
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { system.close(ends[0]); system.close(ends[1]) }
        let copy = try system.duplicate(ends[0]).get()
        defer { system.close(copy) }
        #expect(fcntl(copy, F_GETFD) & FD_CLOEXEC != 0)
        #expect([UInt8(42)].withUnsafeBytes { system.writeAll(ends[1], from: $0) } == nil)
        var byte: [UInt8] = [0]
        #expect(byte.withUnsafeMutableBytes { system.read(copy, into: $0) } == .success(1))
        #expect(byte == [42])
    }

    @Test func aPipeIsNoTerminalAndNoHangup() {
        let system = LiveSystemCalls()
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { system.close(ends[0]); system.close(ends[1]) }
        #expect(!system.isTerminal(ends[1]))
        #expect(system.terminalSize(of: ends[1]) == nil)
        #expect(!system.terminalHasHungUp(ends[1]))
    }

    @Test func theMonotonicClockGoesForward() {
        let system = LiveSystemCalls()
        let first = system.monotonicTime()
        let second = system.monotonicTime()
        #expect(second >= first)
        // The wall clock is past 2020-01-01 on any machine that runs these tests.
        #expect(system.wallClockTime() > .seconds(1_577_836_800))
    }
}
