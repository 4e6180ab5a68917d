// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Bursts of SIGHUP while station-160 rotates on the virtual controller: every burst's last file
/// content goes on air, and once it has, no advertiser ever goes back to an older one (an update
/// is never lost, never applied out of order, never announced and then dropped).
@Suite(.serialized) struct ReloadBurstTests {
    @Test func theLastFileContentOfEveryBurstGoesOnAirAndStays() async throws {
        let original = try String(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent("profiles/station-160.yaml"), encoding: .utf8)
        let path = try BeaconExecutable.temporaryFile(named: "station.yaml", contents: original)
        let run = try BeaconExecutable.start(["advertise", path, "-i", "virtual", "--json", "--air-log", "-"])
        #expect(await run.waitForOutput(containing: "\"event\":\"air\""), "\(run.stderr)")
        let bursts = [2, 3, 5, 8, 13, 21, 31, 50, 2, 50, 7, 2, 40, 3, 17, 29, 2, 50, 11, 4]
        for (trial, count) in bursts.enumerated() {
            // A power no earlier trial used: the last byte of every beacon's data.
            let power = -30 - trial
            let content = original.replacingOccurrences(of: "measured_power: -59", with: "measured_power: \(power)")
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let before = run.stdout.utf8.count
            for _ in 0..<count { run.send(SIGHUP) }
            let suffix = Self.powerByte(power)
            // All 16 sets carry the new power: the update is on air.
            let onAir = await run.waitForOutput(timeout: .seconds(20)) { out in
                Set(Self.air(out, after: before).filter { $0.data.hasSuffix(suffix) }.map(\.advertiser)).count == 16
            }
            #expect(onAir, "trial \(trial) (\(count) SIGHUPs): power \(power) never reached every set\n\(run.stderr.suffix(2000))")
            if !onAir { break }
        }
        run.send(SIGINT)
        #expect(await run.waitForExit(timeout: .seconds(60)) == 0, "\(run.stderr.suffix(2000))")
        // Per advertiser, the powers on air only ever move forward through the trials.
        var last: [String: Int] = [:]
        var regressions: [String] = []
        for entry in Self.air(run.stdout, after: 0) {
            guard let byte = Int(entry.data.suffix(2), radix: 16) else { continue }
            let power = Int(Int8(bitPattern: UInt8(byte)))
            let trial = power == -59 ? -1 : -30 - power
            if let previous = last[entry.advertiser], trial < previous {
                regressions.append("\(entry.advertiser) at \(entry.time): trial \(trial) after \(previous)")
            }
            last[entry.advertiser] = trial
        }
        #expect(regressions.isEmpty, "older content came back: \(regressions.prefix(5))")
    }

    static func powerByte(_ power: Int) -> String {
        String(format: "%02X", UInt8(bitPattern: Int8(power)))
    }

    struct AirEntry {
        var advertiser: String
        var data: String
        var time: Double
    }

    /// The JSON air events of `output` after byte offset `offset`.
    static func air(_ output: String, after offset: Int) -> [AirEntry] {
        let tail = output.utf8.dropFirst(offset)
        return String(decoding: tail, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.contains("\"event\":\"air\""),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let advertiser = object["advertiser"] as? String, let data = object["data"] as? String,
                  let time = object["controller_time"] as? Double else { return nil }
            return AirEntry(advertiser: advertiser, data: data, time: time)
        }
    }
}
