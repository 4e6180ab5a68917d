// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// Runs the programs the cross-checks need: python3 (Bumble, the capture generator), tshark and
/// the built `beacon` executable.
enum ExternalTools {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root: the nearest directory above this file holding Package.swift.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// A program on PATH, or an error naming what to install.
    static func which(_ name: String, install: String) throws -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Missing(description: "\(name) is not installed (\(install)); this cross-check cannot run without it")
    }

    /// The `beacon` executable next to the test bundle (what `swift test` built), or
    /// `$BEACON_EXECUTABLE`.
    static func beacon() throws -> String {
        if let override = ProcessInfo.processInfo.environment["BEACON_EXECUTABLE"], !override.isEmpty { return override }
        var candidates: [URL] = []
        for runner in [CommandLine.arguments[0], (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""]
        where !runner.isEmpty {
            var directory = URL(fileURLWithPath: runner).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent("beacon"))
                directory.deleteLastPathComponent()
            }
        }
        for url in candidates where FileManager.default.isExecutableFile(atPath: url.path) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue { return url.path }
        }
        throw Missing(description: "the beacon executable was not found next to the tests; run `swift build` (or set BEACON_EXECUTABLE)")
    }

    /// Runs `executable` to completion; standard output and error are read concurrently so a
    /// chatty child cannot block on a full pipe.
    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = Locked(Data())
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.isSet { usleep(1000) }
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.value, as: UTF8.self))
    }
}

/// A value written once by another thread.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    private var written = false

    init(_ value: T) { stored = value }

    func set(_ value: T) {
        lock.lock()
        stored = value
        written = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    var value: T {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
