// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconProfiles
import Foundation

extension ProfileFiles {
    /// Loads several files together, as the commands that put them on air need them: every issue
    /// of every file is printed (plus beacons that clash across files: the same identity or
    /// address twice), and the result is all beacons in file order, or the exit status.
    /// Nothing here touches an adapter, so a broken profile never reaches the radio.
    static func loadBeacons(_ paths: [String]) -> Result<[BeaconProfile], ExitCode> {
        var unreadable = false
        for path in paths {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) || isDirectory.boolValue
                || !FileManager.default.isReadableFile(atPath: path) {
                LineOutput.err("error: \(path.escapingControlCharacters): cannot read the file (missing, a directory, or no permission)")
                unreadable = true
            }
        }
        if unreadable { return .failure(ExitStatus.runtimeFailure) }
        do {
            return .success(try ProfileLoader.load(paths: paths).flatMap(\.beacons))
        } catch {
            for issue in error.issues { LineOutput.err(issue.description) }
            return .failure(ExitStatus.dataError)
        }
    }

    /// Keeps only the beacons named in `names` (all of them when `names` is empty); a name that
    /// matches nothing is a usage error that lists the names there are.
    static func select(_ beacons: [BeaconProfile], only names: [String]) -> Result<[BeaconProfile], ExitCode> {
        guard !names.isEmpty else { return .success(beacons) }
        let known = Set(beacons.map(\.name))
        let missing = names.filter { !known.contains($0) }
        guard missing.isEmpty else {
            let list = beacons.map(\.name).joined(separator: ", ")
            return .failure(CommandFailure.exit("--only: no beacon named \(missing.joined(separator: ", ")) (the files have: \(list))", code: ExitStatus.usage))
        }
        let wanted = Set(names)
        return .success(beacons.filter { wanted.contains($0.name) })
    }
}
