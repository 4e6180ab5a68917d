// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `beacon` executable (found by TestSupport's ``Executables``).
enum BeaconCLI {
    /// Runs `beacon arguments…` in the package root to completion.
    static func run(_ arguments: [String]) throws -> ProgramOutput {
        try Program.run(try Executables.beacon.get(), arguments)
    }

    /// Starts `beacon arguments…` in the background (for signals); outputs go to files.
    static func start(_ arguments: [String]) throws -> Running {
        try Running(try Executables.beacon.get(), arguments)
    }

    /// A `beacon` process running in the background.
    final class Running: @unchecked Sendable {
        let process = Process()
        let scratch: URL
        let arguments: [String]

        init(_ executable: URL, _ arguments: [String]) throws {
            self.arguments = arguments
            scratch = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-integ-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: scratch.appendingPathComponent("stdout").path, contents: nil)
            _ = FileManager.default.createFile(atPath: scratch.appendingPathComponent("stderr").path, contents: nil)
            // Through the launcher that clears the signal mask, as a shell's child would have it:
            // a mask inherited from a test-runner thread could hide the SIGTERM under test.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", BumbleLink.unblockingLauncher, executable.path] + arguments
            process.currentDirectoryURL = PackageRoot.url
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: scratch.appendingPathComponent("stdout"))
            process.standardError = try FileHandle(forWritingTo: scratch.appendingPathComponent("stderr"))
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: scratch.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: scratch.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }
        var output: String { "beacon \(arguments.joined(separator: " "))\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Waits up to `timeout` for the exit; kills the process and returns nil if it does not come.
        func wait(timeout: Duration) async -> Int32? {
            let deadline = ContinuousClock.now + timeout
            while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            return process.terminationStatus
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: scratch)
        }
    }
}
