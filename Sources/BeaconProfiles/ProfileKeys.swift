// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The keys each kind of mapping in a profile file accepts (docs/PROFILES.md lists the same).
enum ProfileKeys {
    /// Keys of one beacon, of a `beacons:` entry and of `defaults:`.
    static let beacon = [
        "name", "format", "uuid", "major", "minor", "measured_power", "interval", "tx_power", "address", "flags", "position",
        "calibration_error", "manufacturer", "reserved", "namespace", "instance", "url", "power_at_0m", "tlm", "local_name", "data", "patch",
    ]
    /// Keys every format takes.
    static let common: Set<String> = ["name", "format", "interval", "tx_power", "address", "flags", "position", "calibration_error", "local_name", "patch"]
    /// Keys of `format: raw` besides `name`, `interval`, `tx_power`, `address`, `position`, `local_name`.
    static let raw: Set<String> = ["name", "format", "interval", "tx_power", "address", "position", "calibration_error", "local_name", "data"]
    /// The keys that make a beacon's name, identity and address (a patch makes its data, which
    /// identifies a patched beacon): with these valid, an entry is checked for duplicates even
    /// when other fields have issues.
    static let identifying: Set<String> = [
        "name", "format", "uuid", "major", "minor", "manufacturer", "namespace", "instance", "url", "address", "data", "patch",
    ]
    /// Keys of one `patch:` item.
    static let patch = ["at", "bytes"]
    /// The keys only some formats take, per format; ``common`` keys go with every one.
    static let formatSpecific: [BeaconFormat: [String]] = [
        .iBeacon: ["uuid", "major", "minor", "measured_power"],
        .altBeacon: ["uuid", "major", "minor", "measured_power", "manufacturer", "reserved"],
        .eddystoneUID: ["namespace", "instance", "power_at_0m", "tlm"],
        .eddystoneURL: ["url", "power_at_0m", "tlm"],
    ]
    /// Keys of `tlm:`.
    static let tlm = ["every", "duration", "battery", "temperature"]
    /// Keys of a fleet file's top level.
    static let fleet = ["name", "defaults", "beacons", "air", "areas", "receiver_height"]
    /// Keys of one `areas:` entry.
    static let area = ["name", "walls"]
    /// Keys of a fleet's `air:` mapping.
    static let air = ["preset", "sigma", "exponent", "fading", "loss", "wall_db", "seed"]
    /// Keys of a `major:`/`minor:` range.
    static let range = ["from", "to", "count"]
    /// Keys of `position:`.
    static let position = ["x", "y", "z", "step"]
    /// Keys of `position.step:`.
    static let step = ["x", "y", "z"]
}

/// "Did you mean" for unknown keys.
enum KeySuggestion {
    /// The known key closest to `key`, if it is close enough to be a plausible typo. Case,
    /// underscores and hyphens are ignored first, so `measuredPower` and `Measured-Power` both find
    /// `measured_power`; then up to one edit per three characters is tolerated (so none for keys
    /// of one or two characters, where any other short key would be "close").
    static func closest(to key: String, among known: [String]) -> String? {
        let wanted = normalized(key)
        var best: (key: String, distance: Int)? = nil
        for candidate in known {
            let other = normalized(candidate)
            // The distance is at least the difference in length: a key too long or too short to
            // be close is not compared (a key of a megabyte costs nothing).
            if abs(wanted.count - other.count) > wanted.count / 3 { continue }
            let distance = editDistance(wanted, other)
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= wanted.count / 3 else { return nil }
        return best.key
    }

    static func normalized(_ key: String) -> [Character] {
        Array(key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    /// Levenshtein distance (insert, delete, substitute each cost 1), two rows at a time.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
