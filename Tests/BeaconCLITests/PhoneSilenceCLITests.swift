// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// `scan --as ios --json` on the shared virtual air, in real time, bounded: a beacon whose
/// advertiser stops is listed with RSSI 0, accuracy −1 and proximity unknown (as `CLBeacon`
/// reports one not heard in the last second), then exits after `--exit-after`. The library's
/// timing in virtual time is `PhoneRegionScenarioTests`; this pins what the command prints.
/// Every wait is a hang bound; the verdicts are read from the output.
@Suite(.serialized) struct PhoneSilenceCLITests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test func iosListsASilentBeaconAsZeroMinusOneUnknownThenExits() async throws {
        let air = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-silence-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: air, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: air) }
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let beacon = try Executables.beacon.get().path
        let scanner = try BackgroundProgram(env, ["BEACON_AIR=\(air.path)", beacon, "scan", "-i", "virtual", "--json", "--as", "ios",
                                                  "--uuid", Self.uuid, "--exit-after", "3s"])
        let advertiser = try BackgroundProgram(env, ["BEACON_AIR=\(air.path)", beacon, "advertise", "--uuid", Self.uuid,
                                                     "--major", "1", "--minor", "2", "-i", "virtual"])
        defer {
            scanner.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        func rangingEntries(_ out: String) -> [[String: Any]] {
            out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["event"] as? String == "ranging" }
                .compactMap { ($0["beacons"] as? [[String: Any]])?.first }
        }
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            rangingEntries(out).contains { ($0["rssi"] as? Double).map { $0 < 0 } ?? false }
        }
        #expect(heard, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        advertiser.send(SIGINT)
        #expect(await advertiser.waitForExit(timeout: .seconds(30)) == 0, "\(advertiser.output)")
        let silent = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            rangingEntries(out).contains { $0["rssi"] as? Double == 0 && $0["accuracy"] as? Double == -1 && $0["proximity"] as? String == "unknown" }
        }
        #expect(silent, "a silent beacon: rssi 0, accuracy -1, unknown\n\(scanner.output)")
        let exited = await scanner.waitForOutput(timeout: .seconds(60)) { $0.contains("\"event\":\"exit\"") }
        #expect(exited, "\(scanner.output)")
        scanner.send(SIGINT)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        // The exit is the last report plus the delay: 3 s after the last report line.
        let lines = scanner.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let lastReport = try #require(lines.last { $0["event"] as? String == "report" }?["time"] as? Double)
        let exit = try #require(lines.first { $0["event"] as? String == "exit" }?["time"] as? Double)
        #expect(abs(exit - lastReport - 3) < 0.01, "exit \(exit), last report \(lastReport)")
    }
}
