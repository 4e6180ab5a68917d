// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation

extension FleetWriter {
    /// Why a fleet cannot be saved as a profile.
    public enum SaveError: Error, Sendable, CustomStringConvertible {
        /// No beacons: a fleet without beacons is no profile, so nothing is written.
        case noBeacons
        /// The text written does not read back as a profile (a bug in the writer); the loader's issues.
        case doesNotReadBack(ProfileErrors)
        /// The file was not written (a link, someone else's file, a full disk…); what was at the
        /// path is left as it was.
        case cannotWrite(OutputFileError)

        public var description: String {
            switch self {
            case .noBeacons: "no beacons to save"
            case .doesNotReadBack(let errors): "the fleet does not read back as a profile (a bug): \(errors)"
            case .cannotWrite(let error): "\(error); nothing saved"
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

    /// Saves `beacons` as a fleet named `name` in the profile file `path`: the text of
    /// ``checkedYAML(name:beacons:comment:file:)``, written with BeaconSystem's `AtomicOutputFile`,
    /// so the path holds either what was there or the whole new profile. A new file or a regular
    /// file is replaced (a replaced file keeps its mode and owner); a symbolic link, FIFO, device or
    /// directory at the path is refused, as is a file the caller may not give its owner back.
    public static func save(name: String, beacons: [BeaconProfile], comment: String? = nil, to path: String,
                            system: any SystemCalls = LiveSystemCalls()) throws(SaveError) {
        let text = try checkedYAML(name: name, beacons: beacons, comment: comment, file: path)
        do throws(OutputFileError) { try AtomicOutputFile.write(Array(text.utf8), to: path, system: system) } catch {
            throw .cannotWrite(error)
        }
    }
}
