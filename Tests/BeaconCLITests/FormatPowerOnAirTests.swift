// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every format's own power at 1 m, on the shared virtual air: an iBeacon's measured power, an
/// AltBeacon's reference RSSI and an Eddystone frame's power at 0 m (41 dB above its 1 m figure)
/// give the same RSSI and the same range from the same place, and `scan --save` writes each
/// format's power back as it was advertised.
@Suite struct FormatPowerOnAirTests {
    /// Three beacons of equivalent power (−59 dBm at 1 m) at one position.
    static func mixedFleet(at x: Double) throws -> String {
        try BeaconExecutable.temporaryFile(named: "mixed.yaml", contents: """
            name: mixed
            beacons:
              - {name: ib, uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 1, minor: 1, measured_power: -59, position: {x: \(x), y: 0}}
              - {name: alt, format: altbeacon, uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 2, minor: 2, measured_power: -59, position: {x: \(x), y: 0}}
              - {name: uid, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "000000000001", power_at_0m: -18, position: {x: \(x), y: 0}}

            """)
    }

    static func format(_ object: [String: Any]) -> String { object["format"] as? String ?? "?" }

    @Test func everyFormatIsHeardAndRangedAlikeFromTheSamePlace() async throws {
        let air = try SharedAirTests.privateAir()
        let fleet = try Self.mixedFleet(at: 2)
        let advertiser = try SharedAirTests.start(["advertise", fleet, "-i", "virtual", "--json"], air: air)
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json", "--at", "0,0"], air: air)
        defer {
            scanner.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        // A ranging update with all three formats and their accuracy (the wait is a hang bound).
        func rangedAll(_ out: String) -> [String: Any]? {
            SharedAirTests.jsonLines(out).last { line in
                guard line["event"] as? String == "ranging", let beacons = line["beacons"] as? [[String: Any]] else { return false }
                return Set(beacons.filter { $0["accuracy"] is NSNumber }.map(Self.format)) == ["ibeacon", "altbeacon", "eddystone-uid"]
            }
        }
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { rangedAll($0) != nil }
        #expect(heard, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        scanner.send(SIGINT)
        _ = await scanner.waitForExit(timeout: .seconds(30))
        // 2 m away: −59 − 20·log10(2) = −65.02, so −65 dBm for every format.
        let reports = SharedAirTests.jsonLines(scanner.stdout).filter { $0["event"] as? String == "report" }
        #expect(Set(reports.map(Self.format)) == ["ibeacon", "altbeacon", "eddystone-uid"], "\(scanner.output)")
        for report in reports {
            #expect(report["rssi"] as? Int == -65, "\(report)")
        }
        let ranging = try #require(rangedAll(scanner.stdout)?["beacons"] as? [[String: Any]])
        let accuracies = Set(ranging.compactMap { BeaconExecutable.number($0["accuracy"]) })
        let proximities = Set(ranging.compactMap { $0["proximity"] as? String })
        #expect(accuracies.count == 1 && proximities.count == 1, "\(ranging)")
        #expect(Set(ranging.compactMap { $0["power"] as? Int }) == [-59], "\(ranging)")
    }

    @Test(arguments: [false, true])
    func scanSaveWritesEachFormatsPowerBack(atOneMetre: Bool) async throws {
        let air = try SharedAirTests.privateAir()
        let fleet = try Self.mixedFleet(at: 1)
        let saved = URL(fileURLWithPath: fleet).deletingLastPathComponent().appendingPathComponent("heard.yaml").path
        let advertiser = try SharedAirTests.start(["advertise", fleet, "-i", "virtual", "--json"], air: air)
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json", "--at", "0,0", "--save", saved]
                                               + (atOneMetre ? ["--at-1m"] : []), air: air)
        defer {
            scanner.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            Set(SharedAirTests.jsonLines(out).filter { $0["event"] as? String == "report" }.map(Self.format))
                == ["ibeacon", "altbeacon", "eddystone-uid"]
        }
        #expect(heard, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        scanner.send(SIGINT)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        // 1 m away, the mean RSSI is the power at 1 m: the same file either way.
        #expect(text.components(separatedBy: "measured_power: -59").count - 1 == 2, "\(text)")
        #expect(text.contains("power_at_0m: -18"), "\(text)")
    }
}
