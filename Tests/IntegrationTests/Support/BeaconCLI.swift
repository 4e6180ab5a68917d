// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built `beacon` executable, found as Tests/BeaconCLITests does: an explicit
/// `BEACON_EXECUTABLE`, then next to the test runner (the build products of whatever scratch
/// path `swift test` used), then the newest `.build*/debug/beacon` of this package.
enum BeaconCLI {
    static let location: URL? = {
        var urls: [URL] = []
        if let override = ProcessInfo.processInfo.environment["BEACON_EXECUTABLE"], !override.isEmpty {
            urls.append(URL(fileURLWithPath: override))
        }
        var runners = [URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL]
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { runners.append(URL(fileURLWithPath: exe)) }
        for runner in runners {
            var directory = runner.deletingLastPathComponent()
            for _ in 0..<4 {
                urls.append(directory.appendingPathComponent("beacon"))
                directory.deleteLastPathComponent()
            }
        }
        let fm = FileManager.default
        let root = BumbleLink.packageRoot
        func modified(_ url: URL) -> Date { ((try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast }
        urls += ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasPrefix(".build") }
            .map { root.appendingPathComponent($0).appendingPathComponent("debug").appendingPathComponent("beacon") }
            .sorted { modified($0) > modified($1) }
        return urls.first { url in
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue && fm.isExecutableFile(atPath: url.path)
        }
    }()

    struct NotFound: Error, CustomStringConvertible {
        var description: String { "the beacon executable was not found; run `swift build` first (or set BEACON_EXECUTABLE)" }
    }

    /// Runs `beacon arguments…` in the package root to completion.
    static func run(_ arguments: [String]) throws -> Tool.Result {
        guard let location else { throw NotFound() }
        return try Tool.run(location, arguments)
    }

    /// Starts `beacon arguments…` in the background (for signals); outputs go to files.
    static func start(_ arguments: [String]) throws -> Running {
        guard let location else { throw NotFound() }
        return try Running(location, arguments)
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
            process.currentDirectoryURL = BumbleLink.packageRoot
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
