// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// Examples/AdvertiseFleet and Examples/ScanAndRange, the library used from another package as
/// its README shows: run on the shared virtual air and stopped with SIGINT, each turns off what it
/// turned on (AdvertiseFleet's beacons, heard by `beacon scan` before, are heard no more), says so
/// and exits 0.
// Serialized: both build into the one Examples/.build (SwiftPM would make one wait for the other anyway).
@Suite(.serialized) struct ExampleProgramTests {
    /// An example's executable, built if scripts/examples has not built it yet (a no-op then).
    static func built(_ name: String) throws -> URL {
        let example = PackageRoot.url.appendingPathComponent("Examples/\(name)")
        let swift = try Executables.require("swift", install: "the Swift toolchain")
        let timeout = try Executables.require("timeout", install: "coreutils")
        // A hang bound only: a first build of the library takes minutes. The build folder is the
        // one scripts/examples shares between the example programs.
        let scratch = PackageRoot.url.appendingPathComponent("Examples/.build")
        let arguments = ["900", swift.path, "build", "--package-path", example.path, "--scratch-path", scratch.path, "--product", name]
        var build = try Program.run(timeout, arguments)
        // SwiftPM keeps a path dependency's source list in the build description and does not
        // plan again when beacon's targets gain or lose files ("because of missing inputs", or
        // code that cannot see an added file): after any failure the description is dropped,
        // so it plans again, and the build runs once more, as scripts/examples does. A real
        // error fails both times.
        if build.status != 0 {
            try? FileManager.default.removeItem(at: scratch.appendingPathComponent("debug.yaml"))
            for triple in (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? [] {
                try? FileManager.default.removeItem(at: scratch.appendingPathComponent("\(triple)/debug/description.json"))
            }
            build = try Program.run(timeout, arguments)
        }
        try #require(build.status == 0, "\(build)")
        return scratch.appendingPathComponent("debug/\(name)")
    }

    /// The uuid of profiles/bm1.yaml.
    static let markerUUID = "B9D4719F-A407-42FA-A365-1B6B03AE00CF"

    /// The uuid of every beacon `beacon scan --json` reported, in order.
    static func reports(_ output: String) -> [String] {
        SharedAirTests.jsonLines(output).filter { $0["event"] as? String == "report" }.compactMap { $0["uuid"] as? String }
    }

    @Test func advertiseFleetIsHeardAndLeavesNothingOnAirAfterSIGINT() async throws {
        let executable = try Self.built("AdvertiseFleet")
        let air = try SharedAirTests.privateAir()
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json"], air: air)
        defer { scanner.send(SIGKILL) }
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
        // Nothing of it stays on air. Another advertiser, started only now, is the marker: the air
        // keeps each sender's order, so once the scanner hears the marker, every room beacon still
        // on air would be heard among the marker's next reports (both advertise every 100 ms).
        let marker = try SharedAirTests.start(["advertise", PackageRoot.path("profiles/bm1.yaml"), "-i", "virtual"], air: air)
        defer { marker.send(SIGKILL) }
        let heardMarker = await scanner.waitForOutput { out in
            Self.reports(out).filter { $0 == Self.markerUUID }.count >= 20
        }
        #expect(heardMarker, "scanner:\n\(scanner.output)\nmarker:\n\(marker.output)")
        let afterMarker = Self.reports(scanner.stdout).drop { $0 != Self.markerUUID }
        #expect(!afterMarker.contains(SharedAirTests.uuid), "a room beacon was heard after the example stopped:\n\(scanner.output)")
    }

    @Test func scanAndRangeTurnsScanningOffAndExitsZeroAfterSIGINT() async throws {
        let executable = try Self.built("ScanAndRange")
        let air = try SharedAirTests.privateAir()
        // No SECONDS: it scans until stopped.
        let program = try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air)", executable.path, "virtual"])
        defer { program.send(SIGKILL) }
        #expect(await program.waitForOutput(containing: "scanning on virtual; Ctrl-C stops"), "\(program.output)")
        program.send(SIGINT)
        #expect(await program.waitForExit(timeout: .seconds(30)) == 0, "\(program.output)")
        #expect(program.stdout.hasSuffix("stopped: scanning off\n"), "\(program.output)")
        #expect(program.stderr.isEmpty, "\(program.output)")
    }
}
