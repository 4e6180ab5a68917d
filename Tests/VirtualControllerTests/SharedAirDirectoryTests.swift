// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import HCITransport
import Testing
@testable import VirtualController
#if canImport(Glibc)
import Glibc
#endif

/// The shared air's directory is trusted only when it is safely this user's, as tmux and
/// ssh-agent check theirs: a directory (not a link to one), owned by the effective user, with no
/// permission bits for anyone else. Only this user's sockets are ever removed from it.
@Suite struct SharedAirDirectoryTests {
    static let nobody: uid_t = 65534
    static let isRoot = geteuid() == 0

    /// A fresh scratch directory; `mode` applied as given (not masked by the umask).
    static func scratch(mode: mode_t = 0o700) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-airdir-\(UUID().uuidString.prefix(8))").path
        try #require(mkdir(path, 0o700) == 0)
        try #require(chmod(path, mode) == 0)
        return path
    }

    static func refusal(_ directory: String) -> SharedAirError? {
        do throws(SharedAirError) { _ = try SharedAir(directory: directory).open(); return nil } catch { return error }
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// A UNIX datagram socket bound at `path` and closed again: what a process that died leaves.
    static func staleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        let bound = AirSocket.withAddress(path) { LiveSystemCalls().bind(fd, to: $0) }
        try #require((try? bound.get()) != nil)
    }

    @Test func theDefaultPathIsPerEffectiveUser() {
        #expect(SharedAir.fromEnvironment([:], effectiveUserID: 0)?.directory == "/tmp/beacon-air-0")
        #expect(SharedAir.fromEnvironment([:], effectiveUserID: 1000)?.directory == "/tmp/beacon-air-1000")
        #expect(SharedAir.fromEnvironment(["XDG_RUNTIME_DIR": "/run/user/1000"])?.directory == "/run/user/1000/beacon-air")
        #expect(SharedAir.fromEnvironment(["XDG_RUNTIME_DIR": "/run/user/1000", "BEACON_AIR": "/srv/air"])?.directory == "/srv/air")
        #expect(SharedAir.fromEnvironment(["BEACON_AIR": "off"]) == nil)
        #expect(SharedAir.fromEnvironment([:])?.directory == "/tmp/beacon-air-\(geteuid())")
    }

    @Test func aNewDirectoryIsCreatedPrivate() throws {
        let path = try Self.scratch() + "/air"
        let opened = try SharedAir(directory: path).open()
        var info = stat()
        try #require(lstat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(info.st_uid == geteuid())
        #expect(opened.path == path)
    }

    @Test func aSymbolicLinkInPlaceOfTheDirectoryIsRefusedAndNothingBehindItIsTouched() throws {
        let victim = try Self.scratch()
        let keep = victim + "/precious.sock"
        try "data".write(toFile: keep, atomically: false, encoding: .utf8)
        let link = try Self.scratch() + "/air"
        try #require(symlink(victim, link) == 0)
        let error = try #require(Self.refusal(link))
        #expect(error.description.contains("symbolic link"), "\(error)")
        #expect(error.description.contains("rm \(link)") && error.description.contains("BEACON_AIR"), "\(error)")
        #expect(!error.description.contains("\n"))
        #expect(try String(contentsOfFile: keep, encoding: .utf8) == "data")
    }

    @Test func aDirectoryOthersMayWriteIsRefused() throws {
        let path = try Self.scratch(mode: 0o777)
        let error = try #require(Self.refusal(path))
        #expect(error.description.contains("mode is 777") && error.description.contains("chmod 700 \(path)"), "\(error)")
        // Group bits alone are refused too.
        try #require(chmod(path, 0o750) == 0)
        #expect(Self.refusal(path)?.description.contains("mode is 750") == true)
    }

    @Test func aRegularFileInPlaceOfTheDirectoryIsRefused() throws {
        let path = try Self.scratch() + "/air"
        try "x".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(Self.refusal(path)?.description.contains("not a directory") == true)
        #expect(Self.kind(path) == S_IFREG)
    }

    @Test(.enabled(if: isRoot, "needs root to give a directory to another user"))
    func aDirectoryOfAnotherUserIsRefused() throws {
        let path = try Self.scratch()
        try #require(chown(path, Self.nobody, gid_t(Self.nobody)) == 0)
        let error = try #require(Self.refusal(path))
        #expect(error.description.contains("belongs to user 65534"), "\(error)")
    }

    /// Another local user prepares the directory root would use (as the neighbour did
    /// with /tmp/beacon-air-0): a link to a root-owned folder, or a directory of their own.
    @Test(.enabled(if: isRoot && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser"), "needs root and runuser"))
    func aNeighboursPreparedDirectoryIsRefused() throws {
        // A world-writable sticky folder, like /tmp.
        let shared = try Self.scratch(mode: 0o1777)
        let rootsFolder = try Self.scratch()
        let keep = rootsFolder + "/keep.sock"
        try "root's".write(toFile: keep, atomically: false, encoding: .utf8)
        for (script, expected) in [("ln -s \"$1\" \"$2\"", "symbolic link"), ("mkdir -m 700 \"$2\"", "belongs to user 65534")] {
            let air = shared + "/beacon-air-0"
            let neighbour = Process()
            neighbour.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            neighbour.arguments = ["-u", "nobody", "--", "/bin/sh", "-c", script, "sh", rootsFolder, air]
            try neighbour.run()
            neighbour.waitUntilExit()
            try #require(neighbour.terminationStatus == 0)
            let error = try #require(Self.refusal(air))
            #expect(error.description.contains(expected), "\(error)")
            #expect(try String(contentsOfFile: keep, encoding: .utf8) == "root's")
            _ = unlink(air)
            _ = rmdir(air)
        }
    }

    /// A socket is bound by path: once the checked directory has been moved away and something
    /// else put at its path, nothing is bound there.
    @Test func nothingIsBoundWhenThePathNoLongerNamesTheCheckedDirectory() throws {
        let parent = try Self.scratch()
        let path = parent + "/air"
        let directory = try SharedAir(directory: path).open()
        try #require(rename(path, parent + "/moved") == 0)
        try #require(mkdir(path, 0o700) == 0)
        #expect(throws: SharedAirError.self) { _ = try AirSocket(binding: ("1-1.sock", directory), system: LiveSystemCalls()) }
        #expect(Self.kind(path + "/1-1.sock") == 0)
        #expect(Self.kind(parent + "/moved/1-1.sock") == 0)
    }

    @Test func onlyThisUsersSocketsAreListedAndRemoved() throws {
        let path = try Self.scratch()
        let directory = try SharedAir(directory: path).open()
        try "not a socket".write(toFile: path + "/1-1.sock", atomically: false, encoding: .utf8)
        try Self.staleSocket(at: path + "/2-1.sock")
        try #require(mkdir(path + "/3-1.sock", 0o700) == 0)
        try #require(symlink(path + "/2-1.sock", path + "/4-1.sock") == 0)
        var others: [String] = []
        if Self.isRoot {
            try Self.staleSocket(at: path + "/5-1.sock")
            try #require(lchown(path + "/5-1.sock", Self.nobody, gid_t(Self.nobody)) == 0)
            others = ["5-1.sock"]
        }
        #expect(directory.peers(except: "9-1.sock") == ["2-1.sock"])
        for name in ["1-1.sock", "3-1.sock", "4-1.sock"] + others { #expect(!directory.removeSocket(name), "\(name)") }
        #expect(Self.kind(path + "/1-1.sock") == S_IFREG)
        #expect(Self.kind(path + "/3-1.sock") == S_IFDIR)
        #expect(Self.kind(path + "/4-1.sock") == S_IFLNK)
        for name in others { #expect(Self.kind(path + "/" + name) == S_IFSOCK) }
        #expect(directory.removeSocket("2-1.sock"))
        #expect(Self.kind(path + "/2-1.sock") == 0)
    }
}
