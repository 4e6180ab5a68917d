// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

extension FleetWriter {
    /// Why a fleet cannot be saved as a profile.
    public enum SaveError: Error, Sendable, CustomStringConvertible {
        /// No beacons: a fleet without beacons is no profile, so nothing is written.
        case noBeacons
        /// The text written does not read back as a profile (a bug in the writer); the loader's issues.
        case doesNotReadBack(ProfileErrors)

        public var description: String {
            switch self {
            case .noBeacons: "no beacons to save"
            case .doesNotReadBack(let errors): "the fleet does not read back as a profile (a bug): \(errors)"
            }
        }
    }

    /// The fleet name a profile saved at `path` takes: the file's name without its extension
    /// (`site` for `/tmp/site.yaml`), or `fallback` when that is empty.
    public static func fleetName(forPath path: String, fallback: String = "heard") -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return stem.isEmpty ? fallback : stem
    }

    /// The profile text to save `beacons` as a fleet named `name` in `file`, checked by reading
    /// it back as `advertise` would read the file.
    public static func checkedYAML(name: String, beacons: [BeaconProfile], comment: String? = nil, file: String) throws(SaveError) -> String {
        guard !beacons.isEmpty else { throw .noBeacons }
        let text = yaml(name: name, beacons: beacons, comment: comment)
        do throws(ProfileErrors) { _ = try ProfileLoader.parse(text, file: file) } catch {
            throw .doesNotReadBack(error)
        }
        return text
    }
}
