// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconProfiles
import BeaconSite

/// Loading a site file for the commands: its issues (and those of the profile files it names)
/// printed on standard error one per line, exit 1 for a file that cannot be read, 65 for issues.
enum SiteFiles {
    /// `rereading`: a SIGHUP's second read, of regular files only.
    static func load(_ path: String, rereading: Bool = false) -> Result<Site, ExitCode> {
        do {
            return .success(try SiteLoader.load(contentsOf: path, rereading: rereading))
        } catch {
            let unreadable = error.issues.filter(\.isUnreadableFile)
            if !unreadable.isEmpty {
                for issue in unreadable { LineOutput.err("error: \(InputPath.label(issue.value)): \(issue.message)") }
                return .failure(ExitStatus.runtimeFailure)
            }
            for issue in error.issues { LineOutput.err(issue.description) }
            return .failure(ExitStatus.dataError)
        }
    }
}
