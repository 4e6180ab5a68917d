// SPDX-License-Identifier: GPL-2.0-or-later
import Testing

/// `-q`, `-v` and `--log-level`: flags of every command, anywhere on the line, through swift-log
/// to standard error.
struct LoggingFlagsTests {
    static let room = "profiles/room-2m.yaml"

    @Test func theDefaultShowsThePlanAndQuietHidesIt() throws {
        let normal = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", "200ms"])
        #expect(normal.status == 0, "\(normal)")
        #expect(normal.stderr.contains("plan: 4 beacons"), "\(normal)")

        for quiet in [["-q", "advertise"], ["advertise", "-q"], ["--log-level", "warning", "advertise"], ["advertise", "--quiet"]] {
            let arguments = quiet + [Self.room, "-i", "virtual", "--duration", "200ms"]
            let result = try BeaconExecutable.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(!result.stderr.contains("plan:"), "\(arguments): \(result)")
            // The data on stdout is untouched.
            #expect(result.stdout.contains(" room-west on air: virtual advertiser "), "\(arguments): \(result)")
        }
    }

    @Test func traceLogsEveryHCIPacket() throws {
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", "200ms", "-vvv"])
        #expect(result.status == 0, "\(result)")
        // HCI Reset (opcode 0x0C03) goes out first on a controller beacon owns: 01 03 0C 00.
        #expect(result.stderr.contains("trace: beacon.hci: sent Reset: 01030C00"), "\(result)")
        // Its Command Complete: event 0x0E, 1 credit, opcode 0x0C03, status 0.
        #expect(result.stderr.contains("trace: beacon.hci: received: 040E0401030C00"), "\(result)")
        let debug = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", "200ms", "-vv"])
        #expect(!debug.stderr.contains("trace:"), "\(debug)")
    }

    @Test func aBadLevelIsAUsageErrorNamingTheLevels() throws {
        for arguments in [["--log-level", "loud", "list", Self.room], ["list", Self.room, "--log-level"]] {
            let result = try BeaconExecutable.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains("--log-level") && result.stderr.contains("trace, debug, info, notice, warning, error, critical"), "\(result)")
        }
        // After --, nothing is a logging flag.
        let literal = try BeaconExecutable.run(["decode", "--", "-q"])
        #expect(literal.status != 0 && !literal.stderr.contains("--log-level"), "\(literal)")
    }
}
