// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconProfiles
import BeaconSite

/// Loading a site file for the commands: its issues (and those of the profile files it names)
/// printed on standard error one per line, exit 1 for a file that cannot be read, 65 for issues.
enum SiteFiles {
    /// `rereading`: a SIGHUP's second read, of regular files only; `say`: where the issues go
    /// (a live view's notes while it is up).
    static func load(_ path: String, rereading: Bool = false, say: (String) -> Void = LineOutput.err) -> Result<Site, ExitCode> {
        loading(say: say) { () throws(ProfileErrors) in try SiteLoader.load(contentsOf: path, rereading: rereading) }
    }

    /// `scan --areas FILE`: the profile or site file the receiver stands in.
    static func surroundings(_ path: String) -> Result<ReceiverSurroundings, ExitCode> {
        loading(say: LineOutput.err) { () throws(ProfileErrors) in try ReceiverSurroundings.load(contentsOf: path) }
    }

    private static func loading<T>(say: (String) -> Void, _ read: () throws(ProfileErrors) -> T) -> Result<T, ExitCode> {
        do throws(ProfileErrors) {
            return .success(try read())
        } catch {
            let unreadable = error.issues.filter(\.isUnreadableFile)
            if !unreadable.isEmpty {
                for issue in unreadable { say("error: \(InputPath.label(issue.value)): \(issue.message)") }
                return .failure(ExitStatus.runtimeFailure)
            }
            for issue in error.issues { say(issue.description) }
            return .failure(ExitStatus.dataError)
        }
    }
}
