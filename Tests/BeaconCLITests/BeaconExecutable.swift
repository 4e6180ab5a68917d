// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// What one run of the `beacon` executable produced.
typealias CLIResult = ProgramOutput

/// Runs the built `beacon` executable (found by TestSupport's ``Executables``): these tests drive
/// the real binary end to end, as a user's shell would.
enum BeaconExecutable {
    static var packageRoot: URL { PackageRoot.url }

    /// The executable, looked up once.
    static var location: Result<URL, Executables.BeaconNotFound> { Executables.beacon }

    /// Runs `beacon arguments…` in the package root with `stdin` as standard input (empty when
    /// `nil`, so a command that reads it cannot hang), and waits for it.
    static func run(_ arguments: [String], stdin: String? = nil) throws -> CLIResult {
        try Program.run(try location.get(), arguments, stdin: stdin)
    }

    /// Starts `beacon arguments…` in the background (for signals).
    static func start(_ arguments: [String]) throws -> BackgroundProgram {
        try BackgroundProgram(try location.get(), arguments)
    }

    /// Writes `text` to a fresh temporary file named `name` and returns its path.
    static func temporaryFile(named name: String, contents text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Parses one line of JSON output into a dictionary.
    static func jsonObject(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
        return try #require(object as? [String: Any], "not a JSON object: \(line)")
    }
}

extension BeaconExecutable {
    /// A JSON number as a `Double`, however Foundation chose to represent it.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let d as Double: return d
        case let i as Int: return Double(i)
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }
}
