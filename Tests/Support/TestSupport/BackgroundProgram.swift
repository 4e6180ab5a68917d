// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program that keeps running while the test watches it (`beacon advertise` until a signal):
/// output goes to files the test can read at any time, and the test sends it signals.
///
/// It starts through ``unblockingLauncher``, as a shell's child would: a child inherits the signal
/// mask of the thread that spawned it, and a mask inherited from a test-runner thread could hide
/// the very signal under test.
public final class BackgroundProgram: @unchecked Sendable {
    /// `python3 -c` code: empty signal mask, then exec argv[1:].
    public static let unblockingLauncher =
        "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])"

    public let process = Process()
    public let arguments: [String]
    private let scratch: URL
    private var outURL: URL { scratch.appendingPathComponent("stdout") }
    private var errURL: URL { scratch.appendingPathComponent("stderr") }

    /// Starts `executable arguments…` in `directory` with an empty standard input.
    public init(_ executable: URL, _ arguments: [String], in directory: URL = PackageRoot.url) throws {
        self.arguments = arguments
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-bg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try Data().write(to: scratch.appendingPathComponent("stdout"))
        try Data().write(to: scratch.appendingPathComponent("stderr"))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.unblockingLauncher, executable.path] + arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: scratch.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: scratch.appendingPathComponent("stderr"))
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    public var stdout: String { String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self) }
    public var stderr: String { String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self) }
    /// The command line and both outputs, for failure messages.
    public var output: String { "\(arguments.joined(separator: " "))\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until standard output contains `text`; false after `timeout` or when the program
    /// ended without writing it.
    public func waitForOutput(containing text: String, timeout: Duration = .seconds(60)) async -> Bool {
        await waitForOutput(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until standard output satisfies `condition`; false after `timeout` or when the
    /// program ended without it.
    public func waitForOutput(timeout: Duration = .seconds(60), where condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(stdout) { return true }
            if !process.isRunning { return condition(stdout) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for the exit and returns the status, or nil if it is still running after `timeout`
    /// (then it is killed when this object goes away).
    public func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }
}
