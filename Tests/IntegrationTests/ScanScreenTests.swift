// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

extension BumbleIntegration {
    /// `beacon scan` in tmux at 80×24 and 160×50 while room-2m is advertised on Bumble's other
    /// controller: the view fits, shows the four beacons, its title and summary, and leaves one
    /// summary in the scrollback.
    @Suite("beacon scan in tmux")
    struct ScanScreenTests {
        static let title = "beacon scan on tcp:127.0.0.1:"

        static func isSummary(_ line: String) -> Bool { line.contains(" in range · ") && line.contains(" report") }

        @Test("scan room-2m", arguments: [(80, 24), (160, 50)])
        func room(width: Int, height: Int) async throws {
            try await withBumble(["--scanner-port", "0"]) { link in
                // The harness binds the port itself (0: the kernel picks): no window for another process to take it.
                let scannerPort = link.scannerPort
                let tmux = try TmuxScreen(width: width, height: height, beacon: ["scan", "-i", "tcp:127.0.0.1:\(scannerPort)", "--exit-after", "2s"])
                defer { tmux.close() }
                let scanning = await tmux.waitForScreen { $0.last.map(Self.isSummary) == true }
                try #require(scanning != nil, "the view is up: \(tmux.everything())")

                let advertise = try BeaconCLI.start(["advertise", "profiles/room-2m.yaml", "-i", "tcp:127.0.0.1:\(link.port)", "--duration", "6s"])
                var captures = 0
                let heard = await tmux.waitForScreen { lines in
                    guard let last = lines.last, Self.isSummary(last) else { return false }
                    captures += 1
                    #expect(lines.count <= height)
                    #expect(TmuxScreen.widest(lines) <= width, "a line wider than \(width) columns: \(lines)")
                    #expect(lines.first?.hasPrefix(Self.title) == true, "the title on the first line: \(lines)")
                    #expect(tmux.everything().filter { $0.hasPrefix(Self.title) }.count == 1, "one copy of the title: \(tmux.everything())")
                    return last.contains("4 beacons · 4 in range")
                }
                try #require(heard != nil, "the four beacons in the view: \(tmux.everything())\n\(advertise.output)")
                let rows = heard?.filter { $0.hasPrefix("25795A1D-C318-47F0-A49D-7A2D1D58C79E") } ?? []
                #expect(rows.count == 4, "one row per beacon: \(heard ?? [])")
                #expect(await advertise.waitForExit(timeout: .seconds(60)) == 0, "\(advertise.output)")

                try tmux.sendInterrupt()
                #expect(await tmux.waitForExit() == 0, "\(tmux.everything())")
                let after = tmux.everything()
                #expect(after.filter { $0.hasPrefix(Self.title) }.isEmpty, "no copy of the view is left: \(after)")
                #expect(after.filter(Self.isSummary).count == 1, "one final summary: \(after)")
                #expect(after.contains("scanning stopped"))
            }
        }
    }
}
