// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// What one run of the `beacon` executable produced.
struct CLIResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output split into lines (without the final empty one).
    var lines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Finds and runs the built `beacon` executable: these tests drive the real binary end to end,
/// as a user's shell would.
enum BeaconExecutable {
    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the beacon executable was not found; run `swift build` first (or set BEACON_EXECUTABLE). Looked in:\n  "
                + searched.joined(separator: "\n  ")
        }
    }

    /// The package root: the nearest directory above this file holding Package.swift.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    }()

    /// The executable, looked up once.
    static let location: Result<URL, NotFound> = locate()

    /// Where to look, best first: an explicit override; the directory the test runner was started
    /// from (the build products directory of whatever scratch path `swift test` used) and, for
    /// bundle layouts such as macOS's `X.xctest/Contents/MacOS`, its parents; last, any
    /// `.build*/debug` directory of this package, newest first.
    static func candidates() -> [URL] {
        var urls: [URL] = []
        if let override = ProcessInfo.processInfo.environment["BEACON_EXECUTABLE"], !override.isEmpty {
            urls.append(URL(fileURLWithPath: override))
        }
        var runners = [URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL]
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            runners.append(URL(fileURLWithPath: exe))
        }
        for runner in runners {
            var directory = runner.deletingLastPathComponent()
            for _ in 0..<4 {
                urls.append(directory.appendingPathComponent("beacon"))
                directory.deleteLastPathComponent()
            }
        }
        let fm = FileManager.default
        let scratch = ((try? fm.contentsOfDirectory(atPath: packageRoot.path)) ?? [])
            .filter { $0.hasPrefix(".build") }
            .map { packageRoot.appendingPathComponent($0).appendingPathComponent("debug").appendingPathComponent("beacon") }
            .sorted { modificationDate($0) > modificationDate($1) }
        return urls + scratch
    }

    static func locate() -> Result<URL, NotFound> {
        let urls = candidates()
        for url in urls {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: url.path) {
                return .success(url)
            }
        }
        return .failure(NotFound(searched: urls.map(\.path)))
    }

    private static func modificationDate(_ url: URL) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
    }

    /// Runs `beacon arguments…` in the package root with `stdin` as standard input (empty when
    /// `nil`, so a command that reads it cannot hang), and waits for it.
    static func run(_ arguments: [String], stdin: String? = nil) throws -> CLIResult {
        try Subprocess.run(try location.get(), arguments, stdin: stdin, in: packageRoot)
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
