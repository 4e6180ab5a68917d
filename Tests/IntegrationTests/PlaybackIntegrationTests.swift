// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

extension BumbleIntegration {
    /// `beacon walk` and `beacon play` on Bumble's controller A, `beacon locate --live` and
    /// `beacon scan` on controller B: the loop closed over a real third-party link. Bumble's
    /// scanner reports every advertisement at RSSI −50, so distances come from the measured power
    /// the walk writes into each payload (`--rssi-at-phone -50`).
    @Suite("beacon walk and play")
    struct PlaybackIntegrationTests {
        typealias Line = ScanIntegrationTests.Line

        /// The walk's mean error bound. Measured: 0.033–0.036 m mean (max 0.052 m) over 19 fixes of
        /// this walk (docs/TUTORIAL-positioning.md); the bound leaves about 6× margin. Each fix is
        /// compared with the walker's position at the fix's own (Unix) time, so a slow start of
        /// either program shifts nothing. A calibration 6 dB off gives 1.43 m.
        static let meanErrorBound = 0.2

        @Test("walk around room-2m on A, locate --live on B: the located track follows the path")
        func walkIsLocated() async throws {
            try await withBumble(["--scanner-port", "0"]) { link in
                // The harness binds the port itself (0: the kernel picks): no window for another process to take it.
                let scannerPort = link.scannerPort
                let locate = try BeaconCLI.start(["locate", "profiles/room-2m.yaml", "--live", "--json",
                                                  "-i", "tcp:127.0.0.1:\(scannerPort)", "--duration", "90s"])
                let listening = await link.waitFor(timeout: .seconds(15)) { _ in locate.stderr.contains("locating on") }
                try #require(listening, "beacon locate started: \(locate.output)")

                let walk = try BeaconCLI.run(["walk", "profiles/room-2m.yaml", "--path", "-0.5,-0.5 0.5,-0.5 0.5,0.5 -0.5,0.5",
                                              "--loop", "--speed", "0.25m/s", "--rssi-at-phone", "-50", "--duration", "20s",
                                              "-i", "tcp:127.0.0.1:\(link.port)", "--json"])
                #expect(walk.status == 0, "\(walk)")
                locate.send(SIGINT)
                let status = await locate.waitForExit(timeout: .seconds(10))
                #expect(status == 0, "locate after SIGINT\n\(locate.output)")

                let track = WalkerTrack(walkOutput: walk.stdout)
                try #require(track.positions.count >= 100, "a 20 s walk at 10 updates/s reports its positions\n\(walk)")
                // Fixes whose 1 s window lies within the walk.
                let errors = track.errors(ofFixesIn: locate.stdout)
                try #require(errors.count >= 12, "a fix a second through the walk\n\(locate.output)")
                let mean = errors.reduce(0, +) / Double(errors.count)
                #expect(mean < Self.meanErrorBound, "mean error \(mean) m over \(errors.count) fixes: \(errors)")
            }
        }

        @Test("a region scenario on A, scan on B: exit after the silence began, enter after it ended, in that order")
        func regionScenario() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-play-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let scenario = directory.appendingPathComponent("door.yaml")
            // 10 s of silence, a scan exit delay of 3 s: the exit comes about 3 s into the
            // silence, the enter with the first report after it.
            try """
                fleet:
                  beacons:
                    - {name: door, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 7, minor: 1}
                steps:
                  - {at: 2s, hide: door}
                  - {at: 12s, show: door}
                duration: 15s
                """.write(to: scenario, atomically: true, encoding: .utf8)
            try await withBumble(["--scanner-port", "0"]) { link in
                // The harness binds the port itself (0: the kernel picks): no window for another process to take it.
                let scannerPort = link.scannerPort
                let scan = try BeaconCLI.start(["scan", "-i", "tcp:127.0.0.1:\(scannerPort)", "--json", "--exit-after", "3s", "--duration", "90s"])
                let scanning = await link.waitFor(timeout: .seconds(15)) { _ in scan.stdout.contains("\"event\":\"scanning\"") }
                try #require(scanning, "beacon scan started: \(scan.output)")
                let play = try BeaconCLI.start(["play", scenario.path, "-i", "tcp:127.0.0.1:\(link.port)", "--json"])
                let events: @Sendable (String) -> Int = { kind in Self.regionEvents(scan.stdout).filter { $0 == kind }.count }

                let hidden = await play.waitForOutput(timeout: .seconds(30)) { $0.contains("\"changes\":[\"hide door\"]") }
                try #require(hidden, "the hide step was played\n\(play.output)")
                #expect(events("exit") == 0, "no exit before the silence began\n\(scan.stdout)")

                let shown = await play.waitForOutput(timeout: .seconds(30)) { $0.contains("\"changes\":[\"show door\"]") }
                try #require(shown, "the show step was played\n\(play.output)")
                #expect(events("exit") == 1, "the exit came during the silence\n\(scan.stdout)")

                let reentered = await link.waitFor(timeout: .seconds(20)) { _ in events("enter") >= 2 }
                #expect(reentered, "the beacon entered again after the silence\n\(scan.stdout)")
                #expect(await play.waitForExit(timeout: .seconds(30)) == 0, "play ends after its pass\n\(play.output)")
                scan.send(SIGINT)
                #expect(await scan.waitForExit(timeout: .seconds(10)) == 0, "\(scan.output)")
                #expect(Array(Self.regionEvents(scan.stdout).prefix(3)) == ["enter", "exit", "enter"], "\(scan.stdout)")
            }
        }

        /// The enter/exit events of the door beacon (minor 1), in order.
        static func regionEvents(_ text: String) -> [String] {
            ScanIntegrationTests.lines(text).filter { ($0.event == "enter" || $0.event == "exit") && $0.minor == 1 }.map(\.event)
        }
    }
}
