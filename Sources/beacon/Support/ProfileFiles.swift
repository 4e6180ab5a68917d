// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconProfiles
import Foundation

/// Loading profile files for the commands, with problems reported the same way everywhere:
/// each issue on standard error as `file:line:column: field: value: message`.
enum ProfileFiles {
    /// Loads one file. On failure the problems have already been printed, and the error is the
    /// exit status to end with: ``ExitStatus/runtimeFailure`` when the file cannot be read,
    /// ``ExitStatus/dataError`` when it has issues.
    static func load(_ path: String) -> Result<BeaconFleet, ExitCode> {
        // Checked here so that a missing file is a runtime failure (exit 1), not a profile issue (65).
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: path) else {
            Console.error("error: \(path): cannot read the file (missing, a directory, or no permission)")
            return .failure(ExitStatus.runtimeFailure)
        }
        do {
            return .success(try ProfileLoader.load(contentsOf: path))
        } catch {
            for issue in error.issues { Console.error(issue.description) }
            return .failure(ExitStatus.dataError)
        }
    }
}
