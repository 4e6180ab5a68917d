// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// The shared air's directory end to end: one that is not safely this user's is refused in one
/// line that says how to fix it, before anything is bound or removed there; in a good one, only
/// the sockets nobody listens on are removed, never a regular file. (The checks themselves:
/// VirtualControllerTests' SharedAirDirectoryTests.)
@Suite struct SharedAirSafetyTests {
    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func anUnsafeDirectoryIsRefusedInOneLineWithTheFix() throws {
        let open = try SharedAirTests.privateAir()
        try #require(chmod(open, 0o777) == 0)
        let link = try SharedAirTests.privateAir() + "/air"
        try #require(symlink(open, link) == 0)
        for (air, fix) in [(open, "chmod 700 \(open)"), (link, "rm \(link)")] {
            let result = try Program.run(URL(fileURLWithPath: "/usr/bin/env"),
                                         ["BEACON_AIR=\(air)", try Executables.beacon.get().path, "scan", "-i", "virtual", "--duration", "5s"])
            #expect(result.status == 1, "\(result)")
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
            #expect(errors.count == 1 && errors[0].contains("refusing the directory \(air)") && errors[0].contains(fix)
                    && errors[0].contains("BEACON_AIR"), "\(result)")
            // Nothing was bound there.
            #expect(try FileManager.default.contentsOfDirectory(atPath: open).isEmpty)
        }
    }

    @Test func onlyStaleSocketsAreRemovedNeverARegularFile() async throws {
        let air = try SharedAirTests.privateAir()
        let keep = air + "/1-1.sock", stale = air + "/2-1.sock"
        try "not a socket".write(toFile: keep, atomically: false, encoding: .utf8)
        // A socket whose process is gone.
        try #require(StaleSocket.create(at: stale) && Self.kind(stale) == S_IFSOCK)

        let advertiser = try SharedAirTests.start(["advertise", SharedAirTests.room, "-i", "virtual", "--json"], air: air)
        defer { advertiser.send(SIGKILL) }
        // The advertiser sends to every socket there and removes the one nobody listens on
        // (the deadline is a hang bound only).
        let deadline = ContinuousClock.now + .seconds(60)
        while Self.kind(stale) != 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(Self.kind(stale) == 0, "\(advertiser.output)")
        #expect(try String(contentsOfFile: keep, encoding: .utf8) == "not a socket")
        advertiser.send(SIGINT)
        #expect(await advertiser.waitForExit(timeout: .seconds(30)) == 0, "\(advertiser.output)")
        #expect(try String(contentsOfFile: keep, encoding: .utf8) == "not a socket")
    }
}
