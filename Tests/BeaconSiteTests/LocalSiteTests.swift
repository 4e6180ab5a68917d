// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// A site of one host with two radios on cables runs without a broker: each beacon on air from
/// its radio, heard from the radio's position on the virtual air.
@Suite struct LocalSiteTests {
    @Test func aSiteOfOneHostRunsWithoutABroker() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-local-site-\(UUID().uuidString.prefix(8))")
        let air = directory.appendingPathComponent("air")
        try FileManager.default.createDirectory(at: air, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let siteFile = directory.appendingPathComponent("bench.yaml").path
        try Data(TwoRadioSite.yaml(name: "bench", major: 7).utf8).write(to: URL(fileURLWithPath: siteFile))
        func start(_ arguments: [String]) throws -> BackgroundProgram {
            try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air.path)", try Executables.beacon.get().path] + arguments)
        }
        let site = try start(["site", siteFile])
        defer { site.send(SIGKILL) }
        #expect(await site.waitForOutput(containing: "box/virtual-b: 1 beacon on air"), "\(site.output)")
        let scanner = try start(["scan", "-i", "virtual", "--json", "--at", "0,1"])
        defer { scanner.send(SIGKILL) }
        func rssi(_ minor: Int) -> Int? {
            scanner.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["event"] as? String == "report" && $0["minor"] as? Int == minor }?["rssi"] as? Int
        }
        #expect(await scanner.waitForOutput(timeout: .seconds(60)) { _ in rssi(1) != nil && rssi(2) != nil }, "\(scanner.output)")
        // door from radio a at (0,0), 1 m away: −59; desk from radio b at (10,0), √101 m: −79.
        #expect(rssi(1) == -59 && rssi(2) == -79, "\(scanner.output)")
        site.send(SIGINT)
        #expect(await site.waitForExit(timeout: .seconds(10)) == 0, "\(site.output)")
    }
}
