// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// What one run of a program produced.
public struct ProgramOutput: CustomStringConvertible, Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output split into lines (without the final empty one).
    public var lines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs a program to completion and collects what it wrote.
public enum Program {
    /// Runs `executable arguments…` in `directory` with `stdin` as standard input (empty when
    /// `nil`, so a program that reads it cannot hang), and waits for it. Output goes through
    /// files rather than pipes: nothing to drain concurrently, no risk of a full pipe blocking.
    public static func run(_ executable: URL, _ arguments: [String], stdin: String? = nil,
                           in directory: URL = PackageRoot.url) throws -> ProgramOutput {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
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
        return ProgramOutput(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
