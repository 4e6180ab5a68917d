// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// Finding the programs the tests run: the built `beacon` executable and tools on PATH (python3,
/// tshark). A test whose program is missing fails loudly with what to do, never passes quietly.
public enum Executables {
    /// The `beacon` executable was not found.
    public struct BeaconNotFound: Error, CustomStringConvertible {
        public var searched: [String]
        public var description: String {
            "the beacon executable was not found; run `swift build` first (or set BEACON_EXECUTABLE). Looked in:\n  "
                + searched.joined(separator: "\n  ")
        }
    }

    /// A tool is not installed.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// The built `beacon`, looked up once.
    public static let beacon: Result<URL, BeaconNotFound> = {
        let urls = beaconCandidates()
        return urls.first(where: isExecutableFile).map { .success($0) } ?? .failure(BeaconNotFound(searched: urls.map(\.path)))
    }()

    /// Where to look, best first: an explicit `BEACON_EXECUTABLE`; the directory the test runner
    /// was started from (the build products of whatever scratch path `swift test` used) and, for
    /// bundle layouts such as macOS's `X.xctest/Contents/MacOS`, its parents; last, any
    /// `.build*/debug` directory of this package, newest first.
    static func beaconCandidates() -> [URL] {
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
        let root = PackageRoot.url
        func modified(_ url: URL) -> Date { ((try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast }
        let scratch = ((try? fm.contentsOfDirectory(atPath: root.path)) ?? [])
            .filter { $0.hasPrefix(".build") }
            .map { root.appendingPathComponent($0).appendingPathComponent("debug").appendingPathComponent("beacon") }
            .sorted { modified($0) > modified($1) }
        return urls + scratch
    }

    /// The first executable `name` on PATH (or the usual system directories).
    public static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        return directories.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }.first(where: isExecutableFile)
    }

    /// `name` on PATH, or an error naming what to install.
    public static func require(_ name: String, install: String) throws -> URL {
        guard let url = onPath(name) else {
            throw Missing(description: "\(name) is not installed (\(install)); this test cannot run without it")
        }
        return url
    }

    static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }
}
