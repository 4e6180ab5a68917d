// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// Runs a program to completion and collects what it wrote.
enum Subprocess {
    static func run(_ executable: URL, _ arguments: [String], stdin: String? = nil, in directory: URL) throws -> CLIResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Files rather than pipes: nothing to drain concurrently, no risk of a full pipe blocking.
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try Data((stdin ?? "").utf8).write(to: inURL)
        try Data().write(to: outURL)
        try Data().write(to: errURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try FileHandle(forWritingTo: outURL)
        let error = try FileHandle(forWritingTo: errURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }
}
