// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Files and signals that used to hang a run or end it in a way other commands did not
/// (issue #21): nothing here waits for a verdict by sleeping; every wait is for a line of output
/// or an exit, with a bound that only catches a hang.
@Suite("hostile input and hangups")
struct HostileInputTests {
    static let room = PackageRoot.path("profiles/room-2m.yaml")

    /// Issue #21's shape: nested repeat blocks whose steps are aliases, 10 per level, 6 levels.
    static let aliasBomb: String = {
        var text = "fleet: \(room)\nsteps:\n  - &s0 {at: 0, beacon: room-north, minor: 2}\n"
        for level in 1...6 {
            text += "  - &s\(level) {at: 0, steps: [" + Array(repeating: "*s\(level - 1)", count: 10).joined(separator: ",") + "]}\n"
        }
        return text
    }()

    @Test("a scenario of nested aliases standing for 10^6 changes: refused at once by validate and play (65), the alias's line named")
    func aliasBombIsRefused() throws {
        let path = try BeaconExecutable.temporaryFile(named: "bomb.yaml", contents: Self.aliasBomb)
        for arguments in [["validate", path], ["play", path, "-i", "virtual"], ["play", path, "--dry-run"]] {
            let result = try BeaconExecutable.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result)")
            #expect(result.stderr.contains("\(path):9:25: yaml: more than 1000000 nodes: YAML aliases may repeat at most 1000000 nodes in all"), "\(arguments): \(result)")
        }
    }

    @Test("100,001 flat steps are refused as the documentation says (at most 100,000 changes per pass)")
    func flatStepsPastTheLimit() throws {
        let fleet = "fleet: {beacons: [{name: a, uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 1, minor: 1}]}\n"
        let path = try BeaconExecutable.temporaryFile(named: "flat.yaml", contents: fleet + "steps:\n" + String(repeating: "- {at: 0, hide: a}\n", count: 100_001))
        let result = try BeaconExecutable.run(["validate", path])
        #expect(result.status == 65, "\(result.stdout.prefix(500))\(result.stderr.prefix(500))")
        #expect(result.stderr.contains("\(path):100003:3: steps: more than 100000 changes: a scenario pass may expand to at most 100000 changes"),
                "\(result.stderr.prefix(1000))")
    }

    @Test("standard input without a line end (as /dev/zero or a binary file would give): decode and locate --trace - stop at 1 MiB with the line named")
    func overlongStandardInputLine() throws {
        let endless = String(repeating: "0", count: (1 << 20) + 10)
        let decode = try BeaconExecutable.run(["decode"], stdin: "0201060303AAFE\n" + endless)
        #expect(decode.status == 65, "\(decode.stderr.prefix(500))")
        #expect(decode.stderr.contains("- (standard input):2: longer than 1048576 bytes without a line end"), "\(decode.stderr.prefix(500))")
        let locate = try BeaconExecutable.run(["locate", Self.room, "--trace", "-"], stdin: endless)
        #expect(locate.status != 0)
        #expect(locate.stderr.contains("- (standard input):1: longer than 1048576 bytes without a line end"), "\(locate.stderr.prefix(500))")
    }

    @Test("a trace file that keeps growing while it is read: locate reads what was there when it opened it, and ends")
    func growingTraceFileEnds() async throws {
        let path = try BeaconExecutable.temporaryFile(named: "growing.jsonl", contents: String(repeating: "\n", count: 1 << 16))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let growing = Atomic<Bool>(true)
        // Blank lines (skipped by the reader), appended as fast as the disk takes them.
        let thread = Thread {
            let chunk = Data(repeating: 0x0A, count: 1 << 16)
            // Up to 256 MiB, past the 64 MiB limit, whatever the disk's speed.
            for _ in 0..<4096 where growing.load(ordering: .relaxed) { writer.seekToEndOfFile(); writer.write(chunk) }
        }
        thread.start()
        defer {
            growing.store(false, ordering: .relaxed)
            try? FileManager.default.removeItem(atPath: path)
        }
        let locate = try BeaconExecutable.start(["locate", Self.room, "--trace", path])
        let status = await locate.waitForExit(timeout: .seconds(60))
        growing.store(false, ordering: .relaxed)
        #expect(status != nil, "still reading a file that grows: \(locate.output)")
        #expect(locate.stderr.contains("held no samples") || locate.stderr.contains("more than 67108864 bytes: a trace file is read whole"), "\(locate.output)")
    }

    @Test("a scenario that is not UTF-8: exit 65 in every command that reads it")
    func notUTF8IsADataErrorEverywhere() throws {
        let path = try BeaconExecutable.temporaryFile(named: "latin1.yaml", contents: "")
        try Data("fleet: \(Self.room)\nname: caf".utf8 + [0xE9] + Data("\nsteps: [{at: 1, hide: room-north}]\n".utf8)).write(to: URL(fileURLWithPath: path))
        for arguments in [["validate", path], ["list", path], ["advertise", path, "-i", "virtual"], ["play", path, "-i", "virtual"]] {
            let result = try BeaconExecutable.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result)")
            #expect(result.stderr.contains("is not UTF-8 text"), "\(arguments): \(result)")
        }
    }

    @Test("a character device named as a profile, scenario or trace: refused at once as unreadable (exit 1)")
    func devicesAreRefused() throws {
        for arguments in [["validate", "/dev/zero"], ["play", "/dev/zero", "-i", "virtual"], ["advertise", "/dev/zero", "-i", "virtual"],
                          ["locate", Self.room, "--trace", "/dev/zero"]] {
            let result = try BeaconExecutable.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains("cannot read: it is a character device"), "\(arguments): \(result)")
        }
    }

    @Test("SIGHUP after the profile became a FIFO: the reload is refused at once, the run goes on, and SIGTERM stops it")
    func reloadOfAFIFO() async throws {
        let original = try String(contentsOfFile: Self.room, encoding: .utf8)
        let path = try BeaconExecutable.temporaryFile(named: "room.yaml", contents: original)
        let run = try BeaconExecutable.start(["advertise", path, "-i", "virtual", "--air-log", "-"])
        #expect(await run.waitForOutput(containing: "ADV_NONCONN_IND"), "\(run.output)")
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        run.send(SIGHUP)
        #expect(await run.waitForAnyOutput { $0.contains("it is a FIFO (named pipe); a reload, or a file named inside another file, reads regular files only") }, "\(run.output)")
        #expect(await run.waitForAnyOutput { $0.contains("still advertising the beacons from before") }, "\(run.output)")
        run.send(SIGTERM)
        #expect(await run.waitForExit(timeout: .seconds(30)) == 0, "\(run.output)")
        #expect(run.stdout.contains("advertising stopped"), "\(run.output)")
    }

    @Test("SIGHUP stops a scan (nothing to reload: the terminal is gone), exit 0")
    func sighupStopsScan() async throws {
        let air = try SharedAirTests.privateAir()
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json"], air: air)
        #expect(await scanner.waitForOutput(containing: "\"event\":\"scanning\""), "\(scanner.output)")
        scanner.send(SIGHUP)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        #expect(scanner.stderr.contains("SIGHUP: the terminal hung up (or a hangup was sent): stopping"), "\(scanner.output)")
    }

    @Test("SIGHUP stops play (the scenario owns the beacons: nothing to reload) with the teardown, exit 0")
    func sighupStopsPlay() async throws {
        let path = try BeaconExecutable.temporaryFile(named: "long.yaml", contents: "fleet: \(Self.room)\nsteps: [{at: 1h, hide: room-north}]\n")
        let run = try BeaconExecutable.start(["play", path, "-i", "virtual", "--json"])
        #expect(await run.waitForOutput(containing: "\"event\":\"on_air\""), "\(run.output)")
        run.send(SIGHUP)
        #expect(await run.waitForExit(timeout: .seconds(30)) == 0, "\(run.output)")
        #expect(run.stdout.contains("\"event\":\"stopped\""), "\(run.output)")
        #expect(run.output.contains("SIGHUP: the terminal hung up"), "\(run.output)")
    }

    /// Runs `command` on a pseudo-terminal, waits until it has written `ready` there, then
    /// closes the terminal as a closed window does (the kernel sends SIGHUP); prints `exit N`.
    static let onClosingTerminal = """
        import os, pty, select, signal, sys, time
        ready, argv = sys.argv[1].encode(), sys.argv[2:]
        pid, fd = pty.fork()
        if pid == 0:
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.execvp(argv[0], argv)
        seen, deadline = b"", time.time() + 60
        while ready not in seen and time.time() < deadline:
            if select.select([fd], [], [], 1)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
        if ready not in seen:
            os.kill(pid, 9)
            print("never ready:", seen[-2000:])
            sys.exit(3)
        os.close(fd)
        deadline = time.time() + 30
        while time.time() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                print("exit", os.waitstatus_to_exitcode(status))
                sys.exit(0)
            time.sleep(0.05)
        os.kill(pid, 9)
        print("still running after its terminal closed")
        sys.exit(4)
        """

    @Test("closing the terminal of scan or advertise ends the run, exit 0", arguments: [
        ["scan", "-i", "virtual"], ["advertise", room, "-i", "virtual"],
    ])
    func closingTheTerminalEndsTheRun(arguments: [String]) throws {
        let air = try SharedAirTests.privateAir()
        let beacon = try Executables.beacon.get().path
        let result = try Program.run(URL(fileURLWithPath: "/usr/bin/env"),
                                     ["python3", "-c", Self.onClosingTerminal, "Ctrl-C stops", "env", "BEACON_AIR=\(air)", "TERM=xterm", beacon] + arguments)
        #expect(result.stdout == "exit 0\n", "\(arguments): \(result)")
    }
}

extension BackgroundProgram {
    /// Waits until standard output or standard error satisfies `condition` (a hang bound only).
    func waitForAnyOutput(timeout: Duration = .seconds(60), where condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(stdout + stderr) { return true }
            if !process.isRunning { return condition(stdout + stderr) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
