// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import HCITransport

/// The resident set size of this process (the memory it holds in RAM, as the kernel counts it:
/// `VmRSS` of /proc/self/status), for an agent's telemetry.
public enum ResidentSetSize {
    /// /proc/self/status is about 1.5 KiB; a bound keeps a strange /proc from costing more.
    static let statusLimit = 16_384

    /// This process's resident set size in bytes, or `nil` where /proc does not say (not Linux,
    /// /proc not mounted). `statusFile` is for tests: another process's, or none.
    public static func current(using calls: some SystemCalls = LiveSystemCalls(), statusFile: String = "/proc/self/status") -> Int? {
        guard case .success(let bytes) = calls.readSmallFile(statusFile, limit: statusLimit) else { return nil }
        return parse(status: String(decoding: bytes, as: UTF8.self))
    }

    /// The `VmRSS:  12345 kB` line of a /proc/PID/status text, in bytes (the kernel's kB are KiB).
    public static func parse(status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let words = line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count == 2, words[1] == "kB", let kibibytes = Int(words[0]), kibibytes >= 0,
                  kibibytes <= Int.max / 1024 else { return nil }
            return kibibytes * 1024
        }
        return nil
    }
}
