// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension BumbleIntegration {
    /// `scan --save`: a running mixed fleet cloned from the air in one command, re-advertised from
    /// the saved file and scanned again, gives the same identities from the same addresses.
    @Suite("beacon scan --save")
    struct ScanSaveTests {
        static let fleet = """
            name: site
            beacons:
              - {name: ib, uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 2, measured_power: -59}
              - {name: alt, format: altbeacon, uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 3, minor: 4, measured_power: -60}
              - {name: uid, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "0000000000A1", tlm: {every: 1, duration: 0.3, battery: 2900}}
              - {name: url, format: eddystone-url, url: "https://www.example.com/"}
            """

        /// Each reported identity with its address, in the words of `scan --json` (TLM: none).
        static func heard(_ stdout: String) -> Set<String> {
            var out: Set<String> = []
            for line in ScanIntegrationTests.lines(stdout) where line.event == "report" {
                let o = line.object
                guard (o["format"] as? String) != BeaconFormat.eddystoneTLM.rawValue else { continue }
                let keys = ["format", "uuid", "major", "minor", "id", "manufacturer", "namespace", "instance", "url", "address"]
                out.insert(keys.map { k in o[k].map { "\(k)=\($0)" } ?? "" }.joined(separator: " "))
            }
            return out
        }

        /// Scans on B while `profile` is advertised on A for 3 s; returns the scan's stdout.
        static func scanWhileAdvertising(_ profile: String, extraScanArguments: [String] = []) async throws -> String {
            return try await withBumble(["--scanner-port", "0"]) { link in
                // The harness binds the port itself (0: the kernel picks): no window for another process to take it.
                let scannerPort = link.scannerPort
                let scan = try BeaconCLI.start(["scan", "-i", "tcp:127.0.0.1:\(scannerPort)", "--json", "--duration", "60s"] + extraScanArguments)
                let scanning = await link.waitFor(timeout: .seconds(10)) { _ in scan.stdout.contains("\"event\":\"scanning\"") }
                try #require(scanning, "beacon scan started: \(scan.output)")
                let advertise = try BeaconCLI.run(["advertise", profile, "-i", "tcp:127.0.0.1:\(link.port)", "--duration", "3s"])
                #expect(advertise.status == 0, "\(advertise.stdout)\(advertise.stderr)")
                scan.send(SIGINT)
                let status = await scan.waitForExit(timeout: .seconds(10))
                #expect(status == 0, "beacon scan exit status after SIGINT\n\(scan.output)")
                return scan.stdout
            }
        }

        @Test("a mixed fleet scanned with --save --at-1m, re-advertised from the file, scans the same")
        func roundTrip() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-save-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let original = directory.appendingPathComponent("site.yaml").path
            let saved = directory.appendingPathComponent("cloned.yaml").path
            try Data(Self.fleet.utf8).write(to: URL(fileURLWithPath: original))
            let profiles = try ProfileLoader.load(contentsOf: original).beacons

            let first = try await Self.scanWhileAdvertising(original, extraScanArguments: ["--save", saved, "--at-1m"])
            let firstHeard = Self.heard(first)
            #expect(firstHeard.count == 4, "\(firstHeard)")

            // The saved file: every beacon, same frames but for the power (Bumble's RSSI is −50 dBm:
            // −50 at 1 m, Eddystone −9 at 0 m), from the addresses they used, TLM kept.
            let cloned = try ProfileLoader.load(contentsOf: saved).beacons
            #expect(Set(cloned.compactMap(\.beacon.key)) == Set(profiles.compactMap(\.beacon.key)))
            #expect(Set(cloned.map(\.address)) == Set(profiles.map(\.address)))
            #expect(cloned.allSatisfy { !$0.addressIsDerived && $0.beacon.powerAt1m == -50 })
            #expect(cloned.compactMap(\.telemetry).map(\.batteryMillivolts) == [2900])

            let second = try await Self.scanWhileAdvertising(saved)
            #expect(Self.heard(second) == firstHeard)
        }
    }
}
