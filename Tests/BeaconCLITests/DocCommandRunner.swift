// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs the commands of one documentation block as a reader would, in a sandbox: a temporary
/// directory holding links to the checkout's `profiles/`, `scenarios/`, `docs/`, `examples/` (so relative
/// paths work and anything a command writes lands in the sandbox), its own virtual air
/// (`BEACON_AIR`), and the built `beacon` first on `PATH` (`scripts/beacon` is the same binary,
/// built; the test does not build again).
///
/// An advertiser on the virtual air (advertise, cycle, play, walk: the "terminal 1" of a
/// two-terminal example) and any command that would run until Ctrl-C (a scan or `locate --live`
/// without `--duration`) run in the background: the runner waits until every line the text
/// expects of it has appeared, then goes on with the block's next commands (which hear it). When
/// the block ends, one that runs until stopped gets SIGINT and must then exit with the status
/// expected (0); one with an end of its own (`--duration`, a scenario's last pass) must reach
/// it. Every other command runs in the foreground and must end by itself. Time bounds only catch
/// hangs; every verdict waits for output or an exit.
final class DocCommandRunner {
    static let hangBound: Duration = .seconds(180)
    static let stopBound: Duration = .seconds(10)
    /// How long a background command may take to print what the text expects of it.
    static let linesBound: Duration = .seconds(60)

    let sandbox: URL
    private var running: [(command: DocCommand, program: BackgroundProgram, unbounded: Bool)] = []

    init() throws {
        sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-docs-\(UUID().uuidString)")
        // The air directory must be the user's own and private (0700), or beacon refuses it.
        try FileManager.default.createDirectory(at: sandbox.appendingPathComponent("air"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for name in ["profiles", "scenarios", "docs", "contrib", "examples"] {
            try FileManager.default.createSymbolicLink(at: sandbox.appendingPathComponent(name),
                                                       withDestinationURL: PackageRoot.url.appendingPathComponent(name))
        }
    }

    deinit {
        for (_, program, _) in running where program.process.isRunning { program.send(SIGKILL) }
        try? FileManager.default.removeItem(at: sandbox)
    }

    /// The beacon subcommand of a shell line, when it goes on the air (virtual or `--live`) rather
    /// than printing what it would do.
    static func onAirSubcommand(_ command: String) -> String? {
        let words = command.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(of: "beacon"), index + 1 < words.count,
              command.contains("-i virtual") || command.contains("--live"),
              !["--dry-run", "--plan", "--help"].contains(where: { command.contains($0) }) else { return nil }
        return words[index + 1]
    }

    /// Runs until stopped: the documented command does not end by itself.
    static func isUnbounded(_ command: String) -> Bool {
        guard let subcommand = onAirSubcommand(command) else { return false }
        let bounded = command.contains("--duration") || (subcommand == "cycle" && command.contains("--once"))
        return !bounded && ["advertise", "cycle", "scan", "locate", "walk"].contains(subcommand)
    }

    /// Runs in the background while the block's next commands run.
    static func runsInBackground(_ command: String) -> Bool {
        isUnbounded(command) || ["advertise", "cycle", "play", "walk"].contains(onAirSubcommand(command) ?? "")
    }

    /// The shell line that runs `command` with the built binary.
    static func shellLine(_ command: String) -> String {
        command.replacingOccurrences(of: "scripts/beacon ", with: "beacon ")
    }

    /// Runs one command; records an issue for every way it disagrees with the text.
    func run(_ command: DocCommand) async throws {
        let beacon = try Executables.beacon.get()
        let line = Self.shellLine(command.command)
        let unbounded = Self.isUnbounded(line)
        let environment = [
            "BEACON_AIR=\(sandbox.appendingPathComponent("air").path)",
            "PATH=\(beacon.deletingLastPathComponent().path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")",
            "NO_COLOR=1",
        ]
        // exec: the signal at the end of the block reaches beacon itself, not a shell.
        let script = unbounded ? "exec \(line)" : "set -o pipefail\n\(line)"
        let program = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["-u", "TERM"] + environment + ["bash", "-c", script], in: sandbox)
        if Self.runsInBackground(line) {
            #expect(!unbounded || !command.expectedLines.isEmpty,
                    "\(command): runs until stopped, so the text must say which line shows it works (an <!-- expect --> line)")
            let appeared = await program.waitForOutput(timeout: Self.linesBound) { _ in
                Self.missing(command.expectedLines, in: program).isEmpty
            }
            #expect(appeared, "\(command): did not print \(Self.missing(command.expectedLines, in: program)) while running\n\(program.output)")
            running.append((command, program, unbounded))
            return
        }
        let status = await program.waitForExit(timeout: Self.hangBound)
        check(command, program, status: status)
    }

    /// Stops the block's background commands that run until stopped (last started first), waits
    /// for the others to end, and checks how they ended.
    func finish() async {
        for (command, program, unbounded) in running.reversed() {
            if unbounded { program.send(SIGINT) }
            let status = await program.waitForExit(timeout: unbounded ? Self.stopBound : Self.hangBound)
            check(command, program, status: status)
        }
        running.removeAll()
    }

    private func check(_ command: DocCommand, _ program: BackgroundProgram, status: Int32?) {
        guard let status else {
            Issue.record("\(command): still running after the hang bound\n\(program.output)")
            program.send(SIGKILL)
            return
        }
        #expect(status == command.expectedStatus, "\(command): exit \(status), the text says \(command.expectedStatus)\n\(program.output)")
        let missing = Self.missing(command.expectedLines, in: program)
        #expect(missing.isEmpty, "\(command): the text shows \(missing), the tool printed\n\(program.output)")
    }

    private static func missing(_ lines: [String], in program: BackgroundProgram) -> [String] {
        let output = program.stdout + program.stderr
        return lines.filter { !output.contains($0) }
    }
}
