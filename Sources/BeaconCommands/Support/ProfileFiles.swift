// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconProfiles
import Foundation

/// Loading profile files for the commands, the one way: every problem of every file is printed
/// on standard error as `file:line:column: field: value: message` (plus beacons that clash
/// across files: the same identity or address twice), and the result is the fleets in file
/// order, or the exit status to end with: ``ExitStatus/runtimeFailure`` when a file cannot be
/// read, ``ExitStatus/dataError`` when one has issues. Nothing here touches an adapter, so a
/// broken profile never reaches the radio.
enum ProfileFiles {
    /// What loading some files came to: the fleets, or why not.
    enum Outcome {
        case fleets([BeaconFleet])
        /// Files that could not even be read (path and reason): exit 1.
        case unreadable([(path: String, problem: String)])
        /// Profile issues, every one of every file: exit 65.
        case issues([ProfileIssue])
    }

    /// Loads `paths` together (beacons clashing across files are issues) without printing.
    /// `extra`: beacons from the command line, checked against the files' (not in the fleets).
    /// `accepting`: `.regularFiles` for a reload, which must never wait on a FIFO.
    static func check(_ paths: [String], extra: [BeaconProfile] = [], accepting: ProfileLoader.Accepting = .regularFilesAndPipes) -> Outcome {
        // Checked here so that a missing file is a runtime failure (exit 1), not a profile issue (65).
        var problems = paths.compactMap { path in InputPath.problem(path).map { (path: path, problem: $0) } }
        if paths.filter({ $0 == "-" }).count > 1 { problems.append((path: "-", problem: "standard input can be named once")) }
        if !problems.isEmpty { return .unreadable(problems) }
        do {
            return .fleets(try ProfileLoader.load(paths: paths, extra: extra, accepting: accepting))
        } catch {
            // Opened but refused (a device, or a FIFO on reload): as unreadable as a missing file.
            let unreadable = error.issues.filter(\.isUnreadableFile)
            if !unreadable.isEmpty { return .unreadable(unreadable.map { (path: $0.value, problem: $0.message) }) }
            return .issues(error.issues)
        }
    }

    static func load(_ paths: [String], extra: [BeaconProfile] = [], accepting: ProfileLoader.Accepting = .regularFilesAndPipes) -> Result<[BeaconFleet], ExitCode> {
        switch check(paths, extra: extra, accepting: accepting) {
        case .fleets(let fleets):
            return .success(fleets)
        case .unreadable(let problems):
            for (path, problem) in problems { LineOutput.err("error: \(InputPath.label(path)): \(problem)") }
            return .failure(ExitStatus.runtimeFailure)
        case .issues(let issues):
            for issue in issues { LineOutput.err(issue.description) }
            return .failure(ExitStatus.dataError)
        }
    }

    /// One file.
    static func load(_ path: String) -> Result<BeaconFleet, ExitCode> {
        load([path]).map { $0[0] }
    }

    /// All beacons of several files, in file order (the commands that put them on air).
    static func loadBeacons(_ paths: [String], extra: BeaconProfile? = nil, accepting: ProfileLoader.Accepting = .regularFilesAndPipes) -> Result<[BeaconProfile], ExitCode> {
        let extra = extra.map { [$0] } ?? []
        return load(paths, extra: extra, accepting: accepting).map { $0.flatMap(\.beacons) + extra }
    }
}
