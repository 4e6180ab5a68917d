// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// Help, version and the usage errors (exit 2).
@Suite struct UsageTests {
    static let fields = ["--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "2"]

    @Test func theExecutableIsBuilt() {
        // Every other test needs it; this one says so plainly when it is missing.
        if case .failure(let notFound) = BeaconExecutable.location {
            Issue.record("\(notFound)")
        }
    }

    @Test func helpListsTheSubcommandsAndExitCodes() throws {
        let result = try BeaconExecutable.run(["--help"])
        #expect(result.status == 0, "\(result)")
        for text in ["encode", "decode", "validate", "list", "EXIT STATUS", "65", "EX_DATAERR"] {
            #expect(result.stdout.contains(text), "\(text)")
        }
    }

    @Test func versionIsPrinted() throws {
        let result = try BeaconExecutable.run(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.wholeMatch(of: try Regex(#"\d+\.\d+\.\d+\n"#)) != nil, "\(result)")
    }

    @Test(arguments: [
        (["--major", "70000"], "0 to 65535"),
        (["--minor", "-1"], "0 to 65535"),
        (["--power", "200"], "-128 to 127"),
        (["--uuid", "E2C56DB5"], "--uuid"),
        (["--flags", "0x07"], "0x06, 0x1A or none"),
        (["--interval", "5"], "20 to 10240"),
        (["--address", "00:11:22:33:44:55"], "random static"),
    ])
    func outOfRangeValuesAreUsageErrorsNamingTheRange(override: [String], message: String) throws {
        // Later options win in ArgumentParser, so appending overrides the valid field.
        let result = try BeaconExecutable.run(["encode"] + Self.fields + override)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test(arguments: [
        ["encode", "--bogus"],
        ["decode", "--bogus", "00"],
        ["frobnicate"],
        ["validate"],
        ["encode"],
        ["encode", "profiles/bm1.yaml", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"],
        ["encode", "--name", "x", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "2"],
        ["encode", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1"],
        ["encode", "--format", "xml"] + ["--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "2"],
        ["encode", "--adapter", "eth0", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "2"],
    ])
    func usageErrorsExit2(arguments: [String]) throws {
        let result = try BeaconExecutable.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
    }

    /// One controller named twice in `-i` is a usage error naming both spellings, before anything
    /// is opened.
    @Test(arguments: [
        (["advertise", "profiles/room-2m.yaml", "-i", "hci0,0,hci00"], ["'hci0'", "'0'"]),
        (["stop", "-i", "user:hci0,hci0"], ["'user:hci0'", "'hci0'"]),
        (["doctor", "-i", "tcp:127.0.0.1:9,tcp:127.0.0.1:9"], ["'tcp:127.0.0.1:9' twice"]),
    ])
    func theSameControllerTwiceIsAUsageError(arguments: [String], spellings: [String]) throws {
        let result = try BeaconExecutable.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        for spelling in spellings { #expect(result.stderr.contains(spelling), "\(result)") }
    }
}
