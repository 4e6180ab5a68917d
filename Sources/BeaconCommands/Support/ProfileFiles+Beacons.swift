// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconProfiles

extension ProfileFiles {
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
