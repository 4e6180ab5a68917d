// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// Every file the tool writes (`scan --save`, `--air-log`, `--btsnoop`), end to end: a FIFO,
/// device, directory or symbolic link is refused at once and left as it was; a missing folder is
/// named; a write that fails during the run is reported once and the exit status is 1; a replaced
/// file keeps its mode. (The writer itself: HCITransportTests' OutputFileTests.)
@Suite struct OutputFileSafetyTests {
    static let room = PackageRoot.url.appendingPathComponent("profiles/room-2m.yaml").path

    static func scratch() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-outcli-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url.path
    }

    /// `beacon arguments…` with the shared virtual air off (nothing written there).
    static func run(_ arguments: [String], fileSizeLimitBlocks: Int? = nil) throws -> CLIResult {
        let beacon = try Executables.beacon.get().path
        // `ulimit -f` (512-byte blocks in sh): a write past the limit fails with EFBIG, as a full
        // disk would fail with ENOSPC.
        let script = fileSizeLimitBlocks.map { "ulimit -f \($0) && " } ?? ""
        return try Program.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script + "exec env BEACON_AIR=off \"$0\" \"$@\"", beacon] + arguments)
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// The commands, one per output option, that would write `path`.
    static func writers(_ path: String) -> [[String]] {
        [["advertise", room, "-i", "virtual", "--duration", "2s", "--air-log", path],
         ["stop", "-i", "virtual", "--btsnoop", path],
         ["scan", "-i", "virtual", "--duration", "1s", "--save", path]]
    }

    @Test func aFIFONobodyReadsIsRefusedAtOnce() throws {
        let fifo = try Self.scratch() + "/pipe"
        try #require(mkfifo(fifo, 0o600) == 0)
        for arguments in Self.writers(fifo) {
            // No reader: before the fix --air-log waited here for good (Program.run would hang).
            let result = try Self.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("\(fifo) is a FIFO; only regular files are written"), "\(result)")
            #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }.count == 1, "\(result)")
            #expect(Self.kind(fifo) == S_IFIFO)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root for mknod"))
    func aDeviceIsRefusedAndLeftADevice() throws {
        // A private null device node: were it replaced, only this test's copy would be.
        let device = try Self.scratch() + "/null"
        let null = dev_t((1 << 8) | 3)  // makedev(1, 3): the null device
        try #require(mknod(device, S_IFCHR | 0o666, null) == 0)
        for arguments in Self.writers(device) {
            let result = try Self.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("is a character device"), "\(result)")
            #expect(Self.kind(device) == S_IFCHR)
        }
        // /dev/full: refused before anything is written (it used to swallow every line silently).
        let full = try Self.run(Self.writers("/dev/full")[0])
        #expect(full.status == 1 && full.stderr.contains("--air-log: /dev/full is a character device"), "\(full)")
        #expect(Self.kind("/dev/full") == S_IFCHR)
    }

    @Test func aSymbolicLinkIsNeverWrittenThroughNorReplaced() throws {
        let dir = try Self.scratch()
        let target = dir + "/target", link = dir + "/link"
        try "keep".write(toFile: target, atomically: false, encoding: .utf8)
        try #require(symlink(target, link) == 0)
        for arguments in Self.writers(link) {
            let result = try Self.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("\(link) is a symbolic link (to \(target)); outputs are never written through a link (O_NOFOLLOW)"), "\(result)")
            #expect(Self.kind(link) == S_IFLNK)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        }
    }

    @Test func aMissingFolderOrADirectoryIsNamed() throws {
        let dir = try Self.scratch()
        for arguments in Self.writers(dir + "/missing/out") {
            let result = try Self.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("the folder \(dir)/missing does not exist"), "\(result)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result)")
        }
        for arguments in Self.writers(dir) {
            let result = try Self.run(arguments)
            #expect(result.status == 1 && result.stderr.contains("\(dir) is a directory"), "\(result)")
        }
    }

    /// A write that fails during the run (here past a file size limit of 1 KiB, which the 2 s
    /// air log, about 10 KB, and the btsnoop capture, about 1.9 KB, pass; the command's own
    /// output, under 1 KiB, does not) is reported once per file, naming it and the error; the run
    /// goes on to its end, and its exit status says an output failed.
    @Test func aWriteErrorDuringTheRunIsReportedOnceAndTheStatusIsOne() throws {
        let dir = try Self.scratch()
        let log = dir + "/air.log", snoop = dir + "/run.btsnoop"
        let result = try Self.run(["advertise", Self.room, "-i", "virtual", "--duration", "2s", "--air-log", log, "--btsnoop", snoop],
                                  fileSizeLimitBlocks: 2)
        #expect(result.status == 1, "\(result)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }.sorted()
        #expect(errors == [
            "error: --air-log: writing \(log) failed: File too large; the air log stops here, the run goes on without it",
            "error: --btsnoop: writing \(snoop) failed: File too large; the capture stops here, the run goes on without it",
        ], "\(result)")
        // The run went on to its end: the beacons were taken off the air.
        #expect(result.stdout.contains("virtual: advertising stopped"), "\(result)")
    }

    /// `scan --save` over an existing 0600 file: replaced whole, still 0600, a regular file, and
    /// nothing else left in the folder.
    @Test func scanSaveKeepsTheModeOfTheFileItReplaces() async throws {
        let air = try SharedAirTests.privateAir()
        let dir = try Self.scratch()
        let saved = dir + "/heard.yaml"
        try "old".write(toFile: saved, atomically: false, encoding: .utf8)
        try #require(chmod(saved, 0o600) == 0)
        let advertiser = try SharedAirTests.start(["advertise", Self.room, "-i", "virtual", "--json"], air: air)
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json", "--save", saved], air: air)
        defer {
            scanner.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            SharedAirTests.jsonLines(out).contains { $0["event"] as? String == "report" }
        }
        #expect(heard, "\(scanner.output)\n\(advertiser.output)")
        scanner.send(SIGINT)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        #expect(scanner.stderr.contains("saved "), "\(scanner.output)")
        var info = stat()
        try #require(lstat(saved, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: saved, encoding: .utf8).contains("beacons:"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["heard.yaml"])
    }

    /// `--air-log -` into a pipe nobody reads: the run waits on it, and a stop signal must still
    /// end the run (before the fix neither SIGINT nor a second one did).
    @Test func aStopIsHonouredWhileStandardOutputIsNotRead() async throws {
        let pipe = Pipe()
        let writeEnd = pipe.fileHandleForWriting.fileDescriptor
        // The pipe is full before beacon starts: its first line on standard output waits.
        let flags = fcntl(writeEnd, F_GETFL)
        try #require(fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK) == 0)
        let page = [UInt8](repeating: 0x2E, count: 4096)
        while page.withUnsafeBytes({ Glibc.write(writeEnd, $0.baseAddress, $0.count) }) > 0 {}
        try #require(errno == EAGAIN)
        try #require(fcntl(writeEnd, F_SETFL, flags) == 0)

        let errors = try Self.scratch() + "/stderr"
        try #require(FileManager.default.createFile(atPath: errors, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["BEACON_AIR=off", try Executables.beacon.get().path, "advertise", Self.room, "-i", "virtual", "--air-log", "-"]
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The plan is on standard error: the beacons are going on air (the deadline is a hang bound only).
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, !((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("plan:") {
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGINT)
        let stopBy = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < stopBy { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning, "SIGINT was not honoured while standard output was full: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        #expect(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("standard output was closed (nobody reads it)"))
    }

    @Test func standardOutputIsRefusedWhereTheCommandPrintsThere() throws {
        let save = try Self.run(["scan", "-i", "virtual", "--save", "-"])
        #expect(save.status == 2 && save.stderr.contains("--save needs a file"), "\(save)")
        let snoop = try Self.run(["stop", "-i", "virtual", "--btsnoop", "-"])
        #expect(snoop.status == 1 && snoop.stderr.contains("--btsnoop: - (standard output) is not taken"), "\(snoop)")
    }
}
