// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// What a beacon radiates versus what it claims, on the shared virtual air (docs/AIR.md,
/// "What a beacon radiates"), heard by a scanner in another process.
@Suite struct RadiatedPowerTests {
    static let scenario = """
        name: tx-step
        fleet:
          name: powers
          defaults: {uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, measured_power: -59}
          beacons:
            - {name: stepped, minor: 1, tx_power: 0, position: {x: 2, y: 0}}
            - {name: liar, minor: 2, calibration_error: -6, position: {x: 2, y: 0}}
            - {name: eddy, format: eddystone-uid, namespace: 00112233445566778899, instance: 000000000001, power_at_0m: -18,
               tlm: {every: 2, duration: 0.5}, position: {x: 1, y: 0}}
        steps:
          - {at: 3s, beacon: stepped, tx_power: -20}
        duration: 6s

        """

    @Test("a tx_power step is heard 20 dB weaker while the frame still claims -59; a miscalibrated beacon 6 dB weaker than it claims; TLM frames at their UID frame's power")
    func radiatedNotClaimed() async throws {
        let air = try SharedAirTests.privateAir()
        let file = try BeaconExecutable.temporaryFile(named: "tx-step.yaml", contents: Self.scenario)
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json"], air: air)
        defer { scanner.send(SIGKILL) }
        let listening = await scanner.waitForOutput(timeout: .seconds(30)) { !SharedAirTests.jsonLines($0).isEmpty }
        try #require(listening, "\(scanner.output)")
        let player = try SharedAirTests.start(["play", file, "-i", "virtual"], air: air)
        defer { player.send(SIGKILL) }
        #expect(await player.waitForExit(timeout: .seconds(60)) == 0, "\(player.output)")
        scanner.send(SIGINT)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        let reports = SharedAirTests.jsonLines(scanner.stdout).filter { $0["event"] as? String == "report" }
        func rssi(_ match: ([String: Any]) -> Bool) -> [Int] { reports.filter(match).compactMap { $0["rssi"] as? Int } }
        // 2 m away: −59 − 20·log10(2) = −65 at the profile's 0 dBm, −85 after the step to −20.
        let stepped = reports.filter { $0["minor"] as? Int == 1 }
        try #require(!stepped.isEmpty, "\(scanner.output)")
        #expect(Set(stepped.compactMap { $0["power"] as? Int }) == [-59], "the claim stays: \(stepped)")
        let steppedRSSI = stepped.compactMap { $0["rssi"] as? Int }
        #expect(steppedRSSI.first == -65 && steppedRSSI.last == -85 && Set(steppedRSSI) == [-65, -85], "\(steppedRSSI)")
        #expect(Set(rssi { $0["minor"] as? Int == 2 }) == [-71], "calibration_error -6: \(rssi { $0["minor"] as? Int == 2 })")
        // 1 m away: −18 − 41 = −59, the UID frames and the TLM frames alike.
        let uid = rssi { $0["format"] as? String == "eddystone-uid" }, tlm = rssi { $0["format"] as? String == "eddystone-tlm" }
        #expect(!uid.isEmpty && !tlm.isEmpty, "\(scanner.output)")
        #expect(Set(uid) == [-59] && Set(tlm) == [-59], "UID \(Set(uid)), TLM \(Set(tlm))")
    }

    @Test("beacons on the ceiling: locate --live on the virtual air and locate --simulate give the same fix (one geometry), near the truth")
    func heightsOneGeometry() async throws {
        let fleet = try BeaconExecutable.temporaryFile(named: "ceiling.yaml", contents: """
            name: ceiling
            receiver_height: 1.2
            defaults: {uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 1, measured_power: -59}
            beacons:
              - {name: a, minor: 0, position: {x: -2, y: -1.5, z: 2.8}}
              - {name: b, minor: 1, position: {x: 2, y: -1.5, z: 2.8}}
              - {name: c, minor: 2, position: {x: 2, y: 1.5, z: 2.8}}
              - {name: d, minor: 3, position: {x: -2, y: 1.5, z: 0.5}}

            """)
        let simulated = try BeaconExecutable.run(["locate", fleet, "--simulate", "0.5,0.2", "--noise", "0", "--json"])
        #expect(simulated.status == 0, "\(simulated)")
        let simulatedFix = try #require(SharedAirTests.jsonLines(simulated.stdout).first { $0["x"] != nil })
        #expect((simulatedFix["error"] as? Double ?? 9) < 0.15, "whole-dB RSSI over slant ranges: \(simulatedFix)")
        #expect(simulatedFix["z"] as? Double == 1.2, "\(simulatedFix)")

        let air = try SharedAirTests.privateAir()
        let advertiser = try SharedAirTests.start(["advertise", fleet, "-i", "virtual"], air: air)
        defer { advertiser.send(SIGKILL) }
        let locator = try SharedAirTests.start(["locate", fleet, "--live", "-i", "virtual", "--at", "0.5,0.2", "--json"], air: air)
        defer { locator.send(SIGKILL) }
        // Two fixes: the second's window is all after every beacon was first heard.
        let located = await locator.waitForOutput(timeout: .seconds(60)) { SharedAirTests.jsonLines($0).filter { $0["x"] != nil }.count >= 2 }
        try #require(located, "locator:\n\(locator.output)\nadvertiser:\n\(advertiser.output)")
        let live = SharedAirTests.jsonLines(locator.stdout).filter { $0["x"] != nil }[1]
        for key in ["x", "y", "z"] { #expect(live[key] as? Double == simulatedFix[key] as? Double, "\(key): live \(live), simulated \(simulatedFix)") }
    }
}
