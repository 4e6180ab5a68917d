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
    static func load(_ paths: [String]) -> Result<[BeaconFleet], ExitCode> {
        // Checked here so that a missing file is a runtime failure (exit 1), not a profile issue (65).
        let unreadable = paths.filter { !isReadableFile($0) }
        for path in unreadable {
            LineOutput.err("error: \(path.escapingControlCharacters): cannot read the file (missing, a directory, or no permission)")
        }
        if !unreadable.isEmpty { return .failure(ExitStatus.runtimeFailure) }
        do {
            return .success(try ProfileLoader.load(paths: paths))
        } catch {
            for issue in error.issues { LineOutput.err(issue.description) }
            return .failure(ExitStatus.dataError)
        }
    }

    /// One file.
    static func load(_ path: String) -> Result<BeaconFleet, ExitCode> {
        load([path]).map { $0[0] }
    }

    /// All beacons of several files, in file order (the commands that put them on air).
    static func loadBeacons(_ paths: [String]) -> Result<[BeaconProfile], ExitCode> {
        load(paths).map { $0.flatMap(\.beacons) }
    }

    private static func isReadableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isReadableFile(atPath: path)
    }
}
