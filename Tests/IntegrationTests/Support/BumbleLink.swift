// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import TestSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Why the harness could not be used. These make the test FAIL: a machine without Bumble must
/// not pass the integration tests by skipping them.
struct BumbleLinkError: Error, CustomStringConvertible {
    var description: String

    static let notInstalled = BumbleLinkError(
        description: "python3 on PATH has no Bumble 0.0.236: run the tests with scripts/test, which installs it (scripts/setup --tests) and puts its virtual environment first on PATH")
}

/// `Tests/Harness/bumble_link.py` as a child process: a real third-party controller (Bumble's, with
/// the harness's spec patches) that `beacon` drives over H4/TCP, and a second Bumble controller
/// scanning it. Every stdout line is parsed on a background thread into typed, thread-safe lists.
///
/// `@unchecked Sendable`: the mutable state is behind `state`'s mutex; `Process` and the stdin
/// handle are only used for calls that are safe from any thread (pid, isRunning, close).
final class BumbleLink: @unchecked Sendable {
    /// The `ready` line (always present once ``start(_:readyTimeout:)`` returned).
    var ready: HarnessReady { state.withLock { $0.ready! } }
    var port: UInt16 { ready.port }
    /// The scanner controller's port, when started with `--scanner-port 0`.
    var scannerPort: UInt16 { ready.scannerPort }
    /// Controller A's public address, as the harness reports it.
    var controllerAddress: String { ready.address }

    private let process: Process
    private let stdin: FileHandle
    private let stderrPath: String
    private let state: Locked

    struct State {
        var advertisements: [HarnessAdvertisement] = []
        var commands: [HarnessCommand] = []
        var sets: [HarnessSets] = []
        var errors: [String] = []
        var exitReason: String?
        var ready: HarnessReady?
        var closed = false
    }

    /// The state behind a mutex, in a class so the reader thread can share it.
    final class Locked: Sendable {
        let mutex = Mutex(State())
        func withLock<R>(_ body: (inout State) -> R) -> R { mutex.withLock { body(&$0) } }
    }

    /// Checked once per test process: importing Bumble takes a moment.
    static let bumbleAvailable: Bool = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import bumble"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    /// Starts the harness with `arguments` (after `--port 0`) and waits for its `ready` line.
    static func start(_ arguments: [String] = [], readyTimeout: Duration = .seconds(20)) async throws -> BumbleLink {
        guard bumbleAvailable else { throw BumbleLinkError.notInstalled }
        let link = try BumbleLink(arguments: arguments)
        let deadline = ContinuousClock.now + readyTimeout
        while ContinuousClock.now < deadline {
            let (ready, exited) = link.state.withLock { ($0.ready != nil, $0.closed) }
            if ready { return link }
            if exited { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let stderr = link.stderrText
        link.stop()
        throw BumbleLinkError(description: "bumble_link.py \(arguments.joined(separator: " ")) did not print `ready` within \(readyTimeout); stderr:\n\(stderr)")
    }

    private init(arguments: [String]) throws {
        let script = PackageRoot.url.appendingPathComponent("Tests/Harness/bumble_link.py").path
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("bumble-link-\(UUID().uuidString).stderr").path
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        stderrPath = errPath
        state = Locked()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A forgotten harness ends by itself (--duration) so CI never hangs on it.
        // Through a one-line launcher that clears the signal mask before exec'ing the harness: a
        // child inherits the mask of the thread that spawned it, and test-runner threads may block
        // SIGUSR1 (then the harness would never see our `sets` requests).
        process.arguments = ["python3", "-c", BackgroundProgram.unblockingLauncher, "python3", "-u", script, "--port", "0", "--duration", "90"] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        self.process = process
        self.stdin = input.fileHandleForWriting
        try process.run()
        let reader = output.fileHandleForReading
        let thread = Thread { [state] in Self.readLines(reader, into: state) }
        thread.name = "bumble_link stdout"
        thread.start()
    }

    /// Reads stdout to EOF, one JSON line at a time, on a dedicated thread (blocking reads).
    private static func readLines(_ handle: FileHandle, into state: Locked) {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                guard let event = HarnessEvent(line: line) else { continue }
                state.withLock { s in
                    switch event {
                    case .ready(let r): s.ready = r
                    case .advertisement(let a): s.advertisements.append(a)
                    case .command(let c): s.commands.append(c)
                    case .sets(let v): s.sets.append(v)
                    case .error(let m): s.errors.append(m)
                    case .exit(let reason): s.exitReason = reason
                    case .other: break
                    }
                }
            }
        }
        state.withLock { $0.closed = true }
    }

    // MARK: - Reading what happened

    /// Every advertisement received at or after `time` (harness clock).
    func advs(since time: Double = 0) -> [HarnessAdvertisement] {
        state.withLock { $0.advertisements.filter { $0.time >= time } }
    }

    /// Every command A handled, oldest first; only `opcode`'s when given.
    func commands(opcode: UInt16? = nil) -> [HarnessCommand] {
        state.withLock { s in opcode.map { o in s.commands.filter { $0.opcode == o } } ?? s.commands }
    }

    var setsLines: [HarnessSets] { state.withLock { $0.sets } }
    var errors: [String] { state.withLock { $0.errors } }
    var commandCount: Int { state.withLock { $0.commands.count } }

    /// Polls until `predicate` holds or `timeout` passes; returns whether it held.
    func waitFor(timeout: Duration, _ predicate: @Sendable (BumbleLink) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if predicate(self) { return true }
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Asks for a fresh `sets` line (SIGUSR1) and returns it.
    func requestSets(timeout: Duration = .seconds(5)) async throws -> HarnessSets {
        let before = state.withLock { s in s.sets.filter { $0.reason == "sigusr1" }.count }
        kill(process.processIdentifier, SIGUSR1)
        let got = await waitFor(timeout: timeout) { link in
            link.setsLines.filter { $0.reason == "sigusr1" }.count > before
        }
        guard got, let line = setsLines.last(where: { $0.reason == "sigusr1" }) else {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let signals = status.split(separator: "\n").filter { $0.hasPrefix("Sig") }.joined(separator: ", ")
            throw BumbleLinkError(description: "no `sets` line within \(timeout) of SIGUSR1 (harness \(signals)); stderr:\n\(stderrText)")
        }
        return line
    }

    /// The harness's clock (`time.monotonic()` is CLOCK_MONOTONIC on Linux), to compare with line times.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    var stderrText: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends a signal to the harness process.
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    // MARK: - Stopping

    /// Closes stdin (the harness exits on EOF), waits up to 3 s, then SIGKILLs it.
    func stop() {
        try? stdin.close()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
