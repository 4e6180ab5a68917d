// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `beacon locate --live` end to end through two Bumble controllers on one virtual link
/// (Tests/Harness/bumble_link.py --scanner-port): `beacon advertise` sends the 2 m room's four
/// beacons on A, `locate` scans on B. Bumble's link gives every report the same RSSI, so the
/// four ranges are equal and the fit must land on the room's centre.
@Suite struct LocateLiveTests {
    @Test func liveFixesFromABumbleLink() async throws {
        let python = try Executables.require("python3", install: "apt-get install python3").path
        let beacon = try Executables.beacon.get().path
        let root = PackageRoot.url
        let harness = Process()
        harness.executableURL = URL(fileURLWithPath: python)
        harness.arguments = [root.appendingPathComponent("Tests/Harness/bumble_link.py").path,
                             "--port", "0", "--scanner-port", "0", "--duration", "30"]
        let harnessOut = Pipe(), harnessIn = Pipe()
        harness.standardOutput = harnessOut
        harness.standardInput = harnessIn  // the harness exits when this pipe closes
        harness.standardError = FileHandle.nullDevice
        try harness.run()
        defer {
            try? harnessIn.fileHandleForWriting.close()
            harness.terminate()
            harness.waitUntilExit()
        }
        // The first line is {"event":"ready","port":…,"scanner_port":…}.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = harnessOut.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the Bumble harness ended before it was ready (is Bumble installed? scripts/test installs it)")
            line += chunk
        }
        let ready = try #require(try JSONSerialization.jsonObject(with: line.prefix { $0 != UInt8(ascii: "\n") }) as? [String: Any])
        let port = try #require(ready["port"] as? Int), scannerPort = try #require(ready["scanner_port"] as? Int)

        let fleet = root.appendingPathComponent("profiles/room-2m.yaml").path
        let advertiser = try BackgroundProgram(URL(fileURLWithPath: beacon), ["advertise", fleet, "-i", "tcp:127.0.0.1:\(port)", "--duration", "15"])
        // The scan starts once the advertiser says all four beacons are on air (an event, not a
        // guess at how long that takes).
        let onAir = await advertiser.waitForOutput(timeout: .seconds(30)) { out in
            ["room-west", "room-north", "room-east", "room-south"].allSatisfy { out.contains("\($0) on air") }
        }
        try #require(onAir, "\(advertiser.output)")

        let result = try Program.run(URL(fileURLWithPath: beacon), ["locate", fleet, "--live", "-i", "tcp:127.0.0.1:\(scannerPort)",
                                                    "--duration", "4", "--json"])
        try #require(result.status == 0, "beacon locate --live failed: \(result.stderr)")
        let fixes = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(fixes.count >= 2, "\(result.stdout)\(result.stderr)")
        for fix in fixes {
            #expect(fix["beacons"] as? Int == 4)
            let x = try #require(fix["x"] as? Double), y = try #require(fix["y"] as? Double)
            #expect(hypot(x, y) < 0.01, "fix \(fix)")
        }
        advertiser.send(SIGTERM)  // stopped as before; if the test ends early, BackgroundProgram kills it
        _ = await advertiser.waitForExit(timeout: .seconds(10))
    }
}
