// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `beacon scan --json | beacon locate FLEET --trace -` locates as the scan runs; option values
/// may be negative numbers; a locate that reads no samples says so and fails.
@Suite struct LivePipeTests {
    @Test func locateReadsThePipeAsTheScanRuns() async throws {
        let air = try SharedAirTests.privateAir()
        let beacon = try Executables.beacon.get().path
        let advertiser = try SharedAirTests.start(["advertise", SharedAirTests.room, "-i", "virtual", "--json"], air: air)
        // Its own session, so that the test can end the whole pipeline (scan and locate).
        let script = #""$0" scan -i virtual --json --at -0.3,0.4 --duration 12s | "$0" locate "$1" --trace - --json"#
        let pipeline = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                             ["BEACON_AIR=\(air)", "setsid", "sh", "-c", script, beacon, SharedAirTests.room])
        defer {
            kill(-pipeline.process.processIdentifier, SIGKILL)
            advertiser.send(SIGKILL)
        }
        // The scan runs for 12 s; the first fix must come before it ends (the wait is a hang
        // bound, shorter than the scan: a locate that read to the end of its input fails it).
        let fixed = await pipeline.waitForOutput(timeout: .seconds(10)) { out in
            SharedAirTests.jsonLines(out).contains { $0["beacons"] as? Int == 4 }
        }
        #expect(fixed, "pipeline:\n\(pipeline.output)\nadvertiser:\n\(advertiser.output)")
        #expect(pipeline.process.isRunning, "the scan had ended: \(pipeline.output)")
        let fix = try #require(SharedAirTests.jsonLines(pipeline.stdout).first { $0["beacons"] as? Int == 4 })
        let x = try #require(BeaconExecutable.number(fix["x"])), y = try #require(BeaconExecutable.number(fix["y"]))
        #expect(((x + 0.3) * (x + 0.3) + (y - 0.4) * (y - 0.4)).squareRoot() < 0.15, "\(fix)")
        // When the scan ends, locate prints the last window's fix and ends too.
        #expect(await pipeline.waitForExit(timeout: .seconds(60)) == 0, "\(pipeline.output)")
    }

    @Test(arguments: [
        ["scan", "-i", "virtual", "--at", "-0.3,0.4", "--duration", "100ms", "--json"],
        ["scan", "-i", "virtual", "--at", "-1,-2", "--duration", "100ms", "--json"],
        ["locate", "profiles/room-2m.yaml", "--live", "-i", "virtual", "--at", "-0.3,0.4", "--duration", "100ms"],
    ])
    func negativeCoordinatesAreValues(arguments: [String]) throws {
        let air = try SharedAirTests.privateAir()
        let result = try Program.run(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air)", try Executables.beacon.get().path] + arguments)
        #expect(!result.stderr.contains("Missing value"), "\(result)")
        // locate --live hears nothing here: it fails for want of samples, not of its --at.
        #expect(result.status == (arguments[0] == "locate" ? 65 : 0), "\(result)")
    }

    @Test func negativeWaypointsSimulate() throws {
        let result = try BeaconExecutable.run(["locate", "profiles/room-2m.yaml", "--simulate", "-0.5,0;0.5,0", "--json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains { $0.contains("\"summary\"") }, "\(result)")
    }

    @Test func locateWithoutSamplesSaysSoAndFails() throws {
        let empty = try BeaconExecutable.run(["locate", "profiles/room-2m.yaml", "--trace", "-"], stdin: "")
        #expect(empty.status == 65, "\(empty)")
        #expect(empty.stderr.contains("no fix: - (standard input) held no samples"), "\(empty)")
        // Samples, but never three beacons in a window: also no fix, also a failure.
        let one = #"{"time":0.1,"uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"rssi":-60}"#
        let few = try BeaconExecutable.run(["locate", "profiles/room-2m.yaml", "--trace", "-"], stdin: one + "\n")
        #expect(few.status == 65, "\(few)")
        #expect(few.stderr.contains("(1 sample read from - (standard input))"), "\(few)")
    }
}
