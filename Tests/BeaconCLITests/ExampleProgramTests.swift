// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// Examples/AdvertiseFleet, the library used from another package as its README shows: run on the
/// shared virtual air, heard by `beacon scan`, stopped with SIGINT, it takes its beacons off the
/// air, says so and exits 0.
@Suite struct ExampleProgramTests {
    static let example = PackageRoot.url.appendingPathComponent("Examples/AdvertiseFleet")

    /// The example's executable, built if scripts/examples has not built it yet (a no-op then).
    static func advertiseFleet() throws -> URL {
        let swift = try Executables.require("swift", install: "the Swift toolchain")
        let timeout = try Executables.require("timeout", install: "coreutils")
        // A hang bound only: a first build of the library in the example's own .build takes minutes.
        let build = try Program.run(timeout, ["900", swift.path, "build", "--package-path", example.path, "--product", "AdvertiseFleet"])
        try #require(build.status == 0, "\(build)")
        return example.appendingPathComponent(".build/debug/AdvertiseFleet")
    }

    @Test func advertiseFleetIsHeardAndLeavesNothingOnAirAfterSIGINT() async throws {
        let executable = try Self.advertiseFleet()
        let air = try SharedAirTests.privateAir()
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json"], air: air)
        defer { scanner.send(SIGKILL) }
        #expect(await scanner.waitForOutput(containing: "\"scanning\""), "\(scanner.output)")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: air))

        let program = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air)", executable.path, "virtual", SharedAirTests.room])
        defer { program.send(SIGKILL) }
        #expect(await program.waitForOutput(containing: "on air: "), "\(program.output)")
        // It really advertises: the scanner in another process hears all four of the room's beacons.
        let heardAll = await scanner.waitForOutput { out in
            let minors = SharedAirTests.jsonLines(out).filter { $0["event"] as? String == "report" && $0["uuid"] as? String == SharedAirTests.uuid }
            return Set(minors.compactMap { $0["minor"] as? Int }).isSuperset(of: [0, 1, 2, 3])
        }
        #expect(heardAll, "scanner:\n\(scanner.output)\nexample:\n\(program.output)")

        program.send(SIGINT)
        #expect(await program.waitForExit(timeout: .seconds(30)) == 0, "\(program.output)")
        #expect(program.stdout.hasSuffix("stopped: nothing left on air\n"), "\(program.output)")
        #expect(program.stderr.isEmpty, "\(program.output)")
        // Its controller left the air: what is left in the air directory is the scanner's alone.
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: air)) == before)
    }
}
