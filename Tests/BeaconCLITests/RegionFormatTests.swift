// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// Regions by every format's identity, on the shared virtual air: a UUID region enters with
/// AltBeacons (their ID read as UUID, major, minor), a namespace region with Eddystone-UID beacons.
@Suite struct RegionFormatTests {
    static let fleet = """
        name: mixed
        beacons:
          - {name: alt, format: altbeacon, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 7, minor: 1}
          - {name: ibeacon, uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 7, minor: 1}
          - {name: eddy, format: eddystone-uid, namespace: 00112233445566778899, instance: 000000000001}
          - {name: eddy2, format: eddystone-uid, namespace: 99887766554433221100, instance: 000000000001}

        """

    static func enters(_ region: [String]) async throws -> (reports: [[String: Any]], enters: [[String: Any]], scanning: [String: Any]) {
        let air = try SharedAirTests.privateAir()
        let file = try BeaconExecutable.temporaryFile(named: "mixed.yaml", contents: Self.fleet)
        let advertiser = try SharedAirTests.start(["advertise", file, "-i", "virtual"], air: air)
        defer { advertiser.send(SIGKILL) }
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json"] + region, air: air)
        defer { scanner.send(SIGKILL) }
        // A second ranging line after the enter: every beacon on air has been heard by then.
        let entered = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            let lines = SharedAirTests.jsonLines(out)
            guard let enter = lines.firstIndex(where: { $0["event"] as? String == "enter" }) else { return false }
            return lines[enter...].filter { $0["event"] as? String == "ranging" }.count >= 2
        }
        try #require(entered, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        scanner.send(SIGINT)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        let lines = SharedAirTests.jsonLines(scanner.stdout)
        return (lines.filter { $0["event"] as? String == "report" }, lines.filter { $0["event"] as? String == "enter" },
                try #require(lines.first { $0["event"] as? String == "scanning" }))
    }

    @Test("--uuid: the AltBeacon with that ID enters; the iBeacon of another UUID and the Eddystones are outside")
    func altBeaconByUUID() async throws {
        let (reports, enters, _) = try await Self.enters(["--uuid", "8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E", "--major", "7"])
        #expect(Set(reports.compactMap { $0["format"] as? String }) == ["altbeacon"], "\(reports.prefix(3))")
        #expect(enters.count == 1 && enters[0]["format"] as? String == "altbeacon" && enters[0]["id"] as? String == "8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E-00070001", "\(enters)")
    }

    @Test("--namespace: the Eddystone-UID of that namespace enters, and the region says its namespace in JSON")
    func eddystoneByNamespace() async throws {
        let (reports, enters, scanning) = try await Self.enters(["--namespace", "00112233445566778899"])
        #expect(Set(reports.compactMap { $0["namespace"] as? String }) == ["00112233445566778899"], "\(reports.prefix(3))")
        #expect(Set(reports.compactMap { $0["format"] as? String }) == ["eddystone-uid"])
        #expect(enters.count == 1 && enters[0]["instance"] as? String == "000000000001", "\(enters)")
        let region = try #require(scanning["region"] as? [String: Any])
        #expect(region["namespace"] as? String == "00112233445566778899" && region["instance"] is NSNull, "\(region)")
    }

    @Test("bad region options are refused before anything is opened", arguments: [
        (["--namespace", "0011"], "--namespace must be an Eddystone-UID namespace: 20 hex digits"),
        (["--instance", "000000000001"], "--instance needs --namespace"),
        (["--namespace", "00112233445566778899", "--uuid", "8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E"], "--namespace and --uuid make two kinds of region"),
    ])
    func refused(arguments: [String], message: String) throws {
        let result = try BeaconExecutable.run(["scan", "-i", "virtual"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }
}
