// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import Testing
@testable import BeaconCommands

/// The command line reached as a library (`BeaconCommands`), without spawning the binary: what
/// a command line parses to, the usage errors it gives, and the presentation helpers. The
/// end-to-end behaviour stays in BeaconCLITests, which run the built `beacon`.
@Suite("the command line as a library: parsing and presentation without spawning")
struct CommandParsingTests {
    @Test("advertise: profile files, -i and a compound duration (1m30s, the one duration grammar)")
    func advertiseParses() throws {
        let command = try Beacon.parseAsRoot(["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--duration", "1m30s"])
        let advertise = try #require(command as? AdvertiseCommand)
        #expect(advertise.files == ["profiles/room-2m.yaml"])
        #expect(advertise.duration?.duration == .seconds(90))
    }

    @Test("a duration without a valid unit is refused while parsing")
    func badDuration() {
        #expect(throws: (any Error).self) {
            try Beacon.parseAsRoot(["advertise", "profiles/room-2m.yaml", "--duration", "90 parsecs"])
        }
    }

    @Test("an out-of-range major is a usage error that names the allowed range")
    func majorOutOfRange() {
        do {
            _ = try Beacon.parseAsRoot(["encode", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "70000", "--minor", "1"])
            Issue.record("--major 70000 was accepted")
        } catch {
            let message = Beacon.message(for: error)
            #expect(message.contains("65535"), "\(message)")
        }
    }
}
