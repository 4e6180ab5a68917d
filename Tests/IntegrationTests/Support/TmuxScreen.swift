// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport
import Testing

/// A program running in a detached tmux session of a given size, for tests of what a person
/// sees: the visible screen and the whole scrollback, captured with `tmux capture-pane`. Each
/// session has its own tmux server (`-L`), started without any configuration (`-f /dev/null`).
final class TmuxScreen: @unchecked Sendable {
    let tmux: URL
    let socket: String
    let width: Int
    let height: Int
    /// The line the pane shows once the program has exited.
    static let exitMarker = "tmux-screen: exited with status"

    private static let counter = Atomic<Int>(0)

    /// Starts `beacon arguments…` in the package root in a `width`×`height` terminal, with
    /// `environment` changed (a nil value unsets the variable).
    init(width: Int, height: Int, beacon arguments: [String], environment: [String: String?] = [:]) throws {
        tmux = try Executables.require("tmux", install: "apt-get install tmux, or scripts/setup --tests")
        let beacon = try Executables.beacon.get().path
        socket = "beacon-test-\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)"
        self.width = width
        self.height = height
        // The shell prints the exit status and keeps the pane open for the final capture.
        let exports = environment.sorted { $0.key < $1.key }.map { name, value in
            value.map { "\(name)=\(Self.quote($0))" } ?? "-u \(name)"
        }.joined(separator: " ")
        let command = "\(exports.isEmpty ? "" : "env \(exports) ")\(([beacon] + arguments).map(Self.quote).joined(separator: " ")); echo \"\(Self.exitMarker) $?\"; exec sleep 600"
        let result = try run(["new-session", "-d", "-x", String(width), "-y", String(height), "-c", PackageRoot.url.path, command])
        guard result.status == 0 else { throw Failure(description: "tmux new-session failed: \(result)") }
        socketPath = (try? run(["display-message", "-p", "#{socket_path}"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// The server's socket file, removed by ``close()`` (kill-server leaves it behind).
    private var socketPath = ""

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func run(_ arguments: [String]) throws -> ProgramOutput {
        try Self.spawn(tmux.path, ["tmux", "-L", socket, "-f", "/dev/null"] + arguments)
    }

    /// Runs `path` with `argv` to completion, its standard output in a file, with posix_spawn and
    /// waitpid rather than Foundation's Process: the tmux client starts the server as its own
    /// child and exits, and the child gets an empty signal mask (POSIX_SPAWN_SETSIGMASK), so the
    /// program in the pane gets SIGINT and SIGWINCH whatever the test thread had blocked.
    static func spawn(_ path: String, _ argv: [String]) throws -> ProgramOutput {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-tmux-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for a in cArguments { free(a) } }
        let spawned = posix_spawn(&pid, path, &actions, &attributes, cArguments, environ)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // WIFEXITED/WEXITSTATUS by hand (they are macros).
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProgramOutput(status: exit, stdout: text, stderr: "")
    }

    /// The visible screen, one string per line; wrapped lines joined (-J), so a line wider than
    /// the terminal shows as one long line.
    func screen() -> [String] {
        let text = (try? run(["capture-pane", "-p", "-J", "-t", "0"]))?.stdout ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty()
    }

    /// The scrollback and the screen.
    func everything() -> [String] {
        let text = (try? run(["capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", "0"]))?.stdout ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty()
    }

    /// Polls the screen until `condition` holds (a hang detector, not a timing verdict).
    func waitForScreen(timeout: Duration = .seconds(60), _ condition: ([String]) -> Bool) async -> [String]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let lines = screen()
            if condition(lines) { return lines }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "0", "-x", String(width), "-y", String(height)])
    }

    func sendInterrupt() throws { try run(["send-keys", "-t", "0", "C-c"]) }

    func sendSuspend() throws { try run(["send-keys", "-t", "0", "C-z"]) }

    /// The process id of the program in the pane (the child of the pane's shell).
    func programID() throws -> pid_t? {
        let shell = try run(["display-message", "-p", "-t", "0", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try Self.spawn("/usr/bin/pgrep", ["pgrep", "-P", shell]).stdout
        return children.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    func close() {
        _ = try? run(["kill-server"])
        if socketPath.hasSuffix("/" + socket) { unlink(socketPath) }
    }

    /// Whether every line fits `width` columns (one column per character: the views print
    /// ASCII and single-width punctuation only).
    static func widest(_ lines: [String]) -> Int { lines.map(\.count).max() ?? 0 }
}

extension Array where Element == String {
    /// Without the empty lines at the end (the unused rest of the screen).
    func dropLastEmpty() -> [String] {
        var lines = self
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}

extension TmuxScreen {
    /// The visible screen with its attributes as escape sequences (capture-pane -e).
    func screenWithAttributes() -> String {
        (try? run(["capture-pane", "-p", "-e", "-t", "0"]))?.stdout ?? ""
    }

    /// Waits until the program has exited; its status, or nil on timeout. The marker may follow
    /// the `^C` the terminal echoed on the same line (TERM=dumb leaves it there).
    func waitForExit(timeout: Duration = .seconds(60)) async -> Int? {
        guard let lines = await waitForScreen(timeout: timeout, { $0.contains { $0.contains(Self.exitMarker) } }) else { return nil }
        for line in lines {
            if let marker = line.range(of: Self.exitMarker) { return Int(line[marker.upperBound...].dropFirst()) }
        }
        return nil
    }
}
