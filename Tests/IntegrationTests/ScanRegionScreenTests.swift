// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `beacon scan` in tmux on the shared virtual air: the region's state and its last change stay
/// on the summary line while beacon notes come and go, and the region's enters and exits are in
/// the scrollback when the scan ends.
@Suite struct ScanRegionScreenTests {
    @Test func theRegionStaysInViewAndItsChangesOutliveTheScan() async throws {
        let air = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-air-\(UUID().uuidString.prefix(8))").path
        // Mode 0700: beacon refuses an air directory others may reach.
        try FileManager.default.createDirectory(atPath: air, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let tmux = try TmuxScreen(width: 100, height: 30, beacon: ["scan", "-i", "virtual", "--exit-after", "1s"], environment: ["BEACON_AIR": air])
        defer { tmux.close() }
        let up = await tmux.waitForScreen { $0.last?.contains("region not entered") == true }
        try #require(up != nil, "the view is up, the region not entered: \(tmux.everything())")

        // Four beacons for 2 s: the region is entered, then (1 s after the last report) exited.
        let advertiser = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                               ["BEACON_AIR=\(air)", try Executables.beacon.get().path, "advertise",
                                                "profiles/room-2m.yaml", "-i", "virtual", "--duration", "2s"])
        let entered = await tmux.waitForScreen { $0.last?.hasPrefix("in region since +") == true }
        #expect(entered != nil, "the summary says the region was entered: \(tmux.everything())\n\(advertiser.output)")
        #expect(await advertiser.waitForExit(timeout: .seconds(60)) == 0, "\(advertiser.output)")
        let exited = await tmux.waitForScreen { $0.last?.hasPrefix("out of region since +") == true }
        #expect(exited != nil, "the summary says the region was left: \(tmux.everything())")

        try tmux.sendInterrupt()
        #expect(await tmux.waitForExit() == 0, "\(tmux.everything())")
        let after = tmux.everything()
        // The region's own enters and exits, in order, before the final summary: entered first,
        // exited last, alternating. On a starved machine a gap in the reports longer than
        // --exit-after is a real exit (and the next report a real enter), so there may be more
        // than one pair; what matters is that every change outlived the live view.
        let changes = after.filter { $0.contains("(region any ") }
        let alternating = changes.enumerated().allSatisfy { i, line in
            line.hasSuffix(i.isMultiple(of: 2) ? "(region any entered)" : "(region any exited)")
        }
        #expect(!changes.isEmpty && changes.count.isMultiple(of: 2) && alternating, "\(after)")
        #expect(after.contains { $0.hasPrefix("out of region since +") && $0.contains(" in range · ") }, "\(after)")
    }
}
