// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `beacon` run that keeps going while the test watches it: output goes to files the test can
/// read at any time, and the test sends it signals.
final class BackgroundProcess {
    let process = Process()
    let directory: URL
    let outURL: URL
    let errURL: URL

    init(_ arguments: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-bg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        outURL = directory.appendingPathComponent("stdout")
        errURL = directory.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        process.executableURL = try BeaconExecutable.location.get()
        process.arguments = arguments
        process.currentDirectoryURL = BeaconExecutable.packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    var stdout: String { String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self) }
    var stderr: String { String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self) }

    /// Waits until standard output contains `text`; false after `timeout`.
    func waitForOutput(containing text: String, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if stdout.contains(text) { return true }
            if !process.isRunning { return stdout.contains(text) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits until standard output satisfies `condition` (checked as output arrives), or the
    /// process ends, or `timeout` passes; returns whether it did.
    func waitForOutput(timeout: Duration = .seconds(10), where condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(stdout) { return true }
            if !process.isRunning { return condition(stdout) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the exit and returns the status, or nil if it is still running after `timeout`.
    func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }
}
