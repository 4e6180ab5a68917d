// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// The shared virtual air: `beacon advertise -i virtual` and `beacon scan -i virtual` (or
/// `locate --live -i virtual`) in two processes hear each other, with RSSI from free-space path
/// loss between the profile's positions and `--at`. Each test has its own air directory
/// (`BEACON_AIR`), so tests running in parallel never hear each other.
@Suite struct SharedAirTests {
    static let room = PackageRoot.url.appendingPathComponent("profiles/room-2m.yaml").path
    static let uuid = "25795A1D-C318-47F0-A49D-7A2D1D58C79E"
    static let station = PackageRoot.url.appendingPathComponent("profiles/station-160.yaml").path

    /// A fresh, private air directory (mode 0700: beacon refuses one others may reach).
    static func privateAir() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-air-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory.path
    }

    /// `beacon arguments…` in the background with `BEACON_AIR=air`.
    static func start(_ arguments: [String], air: String) throws -> BackgroundProgram {
        try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air)", try Executables.beacon.get().path] + arguments)
    }

    /// The RSSI of the first report `scanner` prints (its output and the advertiser's if none comes).
    static func firstRSSI(_ scanner: BackgroundProgram, advertiser: BackgroundProgram) async throws -> Int {
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            jsonLines(out).contains { $0["event"] as? String == "report" }
        }
        try #require(heard, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        let report = try #require(jsonLines(scanner.stdout).first { $0["event"] as? String == "report" })
        return try #require(report["rssi"] as? Int, "\(report)")
    }

    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func scanInAnotherProcessHearsExactlyTheAdvertisedBeaconsWithPathLossRSSI() async throws {
        let air = try Self.privateAir()
        let advertiser = try Self.start(["advertise", Self.room, "-i", "virtual", "--json"], air: air)
        let scanner = try Self.start(["scan", "-i", "virtual", "--json", "--at", "1,1"], air: air)
        defer {
            scanner.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        // Every minor heard (the wait is a hang detector: the scanner reports as soon as it hears).
        let heardAll = await scanner.waitForOutput(timeout: .seconds(60)) { out in
            let minors = Set(Self.jsonLines(out).filter { $0["event"] as? String == "report" }.compactMap { $0["minor"] as? Int })
            return minors.isSuperset(of: [0, 1, 2, 3])
        }
        #expect(heardAll, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        scanner.send(SIGINT)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0, "\(scanner.output)")
        let reports = Self.jsonLines(scanner.stdout).filter { $0["event"] as? String == "report" }
        // Exactly the room's four identities, nothing else.
        let identities = Set(reports.map { "\($0["uuid"] as? String ?? "?") \($0["major"] as? Int ?? -1) \($0["minor"] as? Int ?? -1)" })
        #expect(identities == Set((0...3).map { "\(Self.uuid) 1 \($0)" }), "\(scanner.output)")
        // At (1,1): north (0,1) and east (1,0) are 1 m away, so their RSSI is the measured
        // power, −59; west (−1,0) and south (0,−1) are √5 m away: −59 − 20·log10(√5) ≈ −66.
        let expected = [0: -66, 1: -59, 2: -59, 3: -66]
        for report in reports {
            let minor = try #require(report["minor"] as? Int)
            #expect(report["rssi"] as? Int == expected[minor], "minor \(minor): \(report)")
        }
        advertiser.send(SIGINT)
        #expect(await advertiser.waitForExit(timeout: .seconds(30)) == 0, "\(advertiser.output)")
        // Both processes removed what they put in the air directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: air).isEmpty)
    }

    /// `scan --areas FILE`: a scanner with no fleet of its own hears through the walls of a
    /// profile file's areas. One beacon at the origin, a wall at x = 2: a scanner at (4, 0)
    /// with the areas hears it exactly wall_db lower than one beside it without them
    /// (clean air: the RSSI is the path loss, whole dBm, no draws).
    @Test func scanWithAreasHearsABeaconBehindAWallWallDBLower() async throws {
        let air = try Self.privateAir()
        let file = URL(fileURLWithPath: air).appendingPathComponent("walled.yaml").path
        try """
            beacons:
              - {name: origin, uuid: \(Self.uuid), major: 1, minor: 7, measured_power: -59, position: {x: 0, y: 0}}
            areas:
              - {name: wall, walls: [[2, -5], [2, 5], [2.1, 5], [2.1, -5]]}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let advertiser = try Self.start(["advertise", file, "-i", "virtual", "--json"], air: air)
        let walled = try Self.start(["scan", "-i", "virtual", "--json", "--at", "4,0", "--air-wall-db", "10", "--areas", file], air: air)
        let open = try Self.start(["scan", "-i", "virtual", "--json", "--at", "4,0", "--air-wall-db", "10"], air: air)
        defer {
            for program in [walled, open, advertiser] { program.send(SIGKILL) }
        }
        func firstRSSI(_ scanner: BackgroundProgram) async throws -> Int { try await Self.firstRSSI(scanner, advertiser: advertiser) }
        // −59 − 20·log₁₀(4) = −71.04 in the open; the rectangle's two long sides are two walls
        // on the way, 10 dB each.
        #expect(try await firstRSSI(open) == -71)
        #expect(try await firstRSSI(walled) == -91)
        for program in [walled, open, advertiser] {
            program.send(SIGINT)
            #expect(await program.waitForExit(timeout: .seconds(30)) == 0, "\(program.output)")
        }
    }

    /// `scan --areas SITE.yaml`: the receiver stands in a site file, whose `air:` is the channel
    /// (exponent 4: −59 − 40·log₁₀(4) = −83.08 at 4 m, clean otherwise, so no draws) and which
    /// `--air-exponent 2` overrides (−71.04), as for a fleet's `air:` in locate.
    @Test func scanStandingInASiteFileHearsThroughItsAirUnlessAFlagOverridesIt() async throws {
        let air = try Self.privateAir()
        let directory = URL(fileURLWithPath: air)
        let fleet = directory.appendingPathComponent("one.yaml").path
        let site = directory.appendingPathComponent("site.yaml").path
        try "beacons:\n  - {name: origin, uuid: \(Self.uuid), major: 1, minor: 8, measured_power: -59, position: {x: 0, y: 0}}\n"
            .write(toFile: fleet, atomically: true, encoding: .utf8)
        try "name: bench\nair: {exponent: 4}\nradios:\n  - {host: box, adapter: virtual, position: {x: 0, y: 0}}\nprofiles: [one.yaml]\n"
            .write(toFile: site, atomically: true, encoding: .utf8)
        let advertiser = try Self.start(["advertise", fleet, "-i", "virtual", "--json"], air: air)
        let fromFile = try Self.start(["scan", "-i", "virtual", "--json", "--at", "4,0", "--areas", site], air: air)
        let overridden = try Self.start(["scan", "-i", "virtual", "--json", "--at", "4,0", "--areas", site, "--air-exponent", "2"], air: air)
        defer {
            for program in [fromFile, overridden, advertiser] { program.send(SIGKILL) }
        }
        func firstRSSI(_ scanner: BackgroundProgram) async throws -> Int { try await Self.firstRSSI(scanner, advertiser: advertiser) }
        #expect(try await firstRSSI(fromFile) == -83)
        #expect(try await firstRSSI(overridden) == -71)
        for program in [fromFile, overridden, advertiser] {
            program.send(SIGINT)
            #expect(await program.waitForExit(timeout: .seconds(30)) == 0, "\(program.output)")
        }
    }

    @Test func areasNeedAWallLossOnTheVirtualAir() throws {
        // station-160.yaml has areas and no air:: its walls would take nothing off.
        let noLoss = try BeaconExecutable.run(["scan", "-i", "virtual", "--areas", Self.station])
        #expect(noLoss.status == 2, "\(noLoss)")
        #expect(noLoss.stderr.contains("--areas needs --air-wall-db above 0"), "\(noLoss)")
        let notVirtual = try BeaconExecutable.run(["scan", "-i", "tcp:127.0.0.1:1", "--areas", Self.station])
        #expect(notVirtual.status == 2 && notVirtual.stderr.contains("it needs -i virtual"), "\(notVirtual)")
        let zero = try BeaconExecutable.run(["scan", "-i", "virtual", "--areas", Self.station, "--air-wall-db", "0"])
        #expect(zero.status == 2 && zero.stderr.contains("--areas needs --air-wall-db above 0"), "\(zero)")
        let hardware = try BeaconExecutable.run(["scan", "-i", "tcp:127.0.0.1:1", "--areas", Self.station, "--air-wall-db", "3"])
        #expect(hardware.status == 2 && hardware.stderr.contains("need -i virtual"), "\(hardware)")
    }

    /// A broken areas file is refused like any profile, naming file, line and field, before
    /// anything listens.
    @Test func aBrokenAreasFileIsRefusedWithItsLine() throws {
        let air = try Self.privateAir()
        let file = URL(fileURLWithPath: air).appendingPathComponent("broken.yaml").path
        try "beacons:\n  - {uuid: \(Self.uuid), major: 1, minor: 1}\nareas:\n  - {name: hall, walls: [[0, 0], [4, 0]]}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        // Refused while loading, before the adapter opens: nothing reaches the air.
        let result = try BeaconExecutable.run(["scan", "-i", "virtual", "--areas", file, "--air-wall-db", "3", "--duration", "1s"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("\(file):4:"), "\(result)")
        #expect(result.stderr.contains("areas[0].walls"), "\(result)")
    }

    @Test func locateLiveOnTheSharedAirLandsOnTheReceiverPosition() async throws {
        let air = try Self.privateAir()
        let advertiser = try Self.start(["advertise", Self.room, "-i", "virtual", "--json"], air: air)
        let locator = try Self.start(["locate", Self.room, "--live", "-i", "virtual", "--at", "0.3,-0.4", "--json"], air: air)
        defer {
            locator.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        let fixed = await locator.waitForOutput(timeout: .seconds(60)) { out in
            Self.jsonLines(out).contains { $0["beacons"] as? Int == 4 }
        }
        #expect(fixed, "locate:\n\(locator.output)\nadvertiser:\n\(advertiser.output)")
        let fix = try #require(Self.jsonLines(locator.stdout).first { $0["beacons"] as? Int == 4 })
        let x = try #require(BeaconExecutable.number(fix["x"])), y = try #require(BeaconExecutable.number(fix["y"]))
        // RSSI is whole dBm, so ranges are off by up to 6 %: the fix lands within a few cm.
        #expect(((x - 0.3) * (x - 0.3) + (y + 0.4) * (y + 0.4)).squareRoot() < 0.15, "\(fix)")
    }

    /// The closed loop on the virtual air: `walk` in one process, `locate --live
    /// --follow-walker` in another; each fix is compared with where the walker was at the fix's
    /// own time. Measured: 0.016 m mean over 19 fixes at 0.25 m/s (docs/TUTORIAL-positioning.md);
    /// RSSI on this air is exact to the dBm, so the error is the 1 s window's and the rounding's.
    @Test func locateFollowingTheWalkerOnTheVirtualAirFollowsTheWalk() async throws {
        let air = try Self.privateAir()
        let locator = try Self.start(["locate", Self.room, "--live", "-i", "virtual", "--follow-walker", "--json"], air: air)
        defer { locator.send(SIGKILL) }
        let listening = await locator.waitForOutput(timeout: .seconds(30)) { _ in locator.stderr.contains("locating on") }
        try #require(listening, "\(locator.output)")
        let walker = try Self.start(["walk", Self.room, "--path", "square", "--loop", "--speed", "0.25m/s",
                                     "--duration", "12s", "-i", "virtual", "--json"], air: air)
        defer { walker.send(SIGKILL) }
        #expect(await walker.waitForExit(timeout: .seconds(60)) == 0, "\(walker.output)")
        locator.send(SIGINT)
        #expect(await locator.waitForExit(timeout: .seconds(30)) == 0, "\(locator.output)")

        let track = WalkerTrack(walkOutput: walker.stdout)
        try #require(track.positions.count >= 100, "a 12 s walk at 10 updates a second\n\(walker.output)")
        let errors = track.errors(ofFixesIn: locator.stdout)
        try #require(errors.count >= 8, "a fix a second through the walk\n\(locator.output)")
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 0.2, "mean error \(mean) m over \(errors.count) fixes: \(errors)")
        // The fixes move with the walker around the square, not sitting at the origin.
        let xs = Self.jsonLines(locator.stdout).compactMap { BeaconExecutable.number($0["x"]) }
        #expect((xs.max() ?? 0) - (xs.min() ?? 0) > 0.8, "\(xs)")
    }

    @Test func followWalkerNeedsLiveOnTheVirtualController() throws {
        let result = try BeaconExecutable.run(["locate", Self.room, "--live", "-i", "tcp:127.0.0.1:1", "--follow-walker"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--follow-walker moves the receiver on the shared virtual air: it needs --live and -i virtual"), "\(result)")
    }

    @Test func atNeedsTheVirtualController() throws {
        let result = try BeaconExecutable.run(["scan", "-i", "tcp:127.0.0.1:1", "--at", "1,1"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--at places the receiver on the shared virtual air"), "\(result)")
        let bad = try BeaconExecutable.run(["scan", "-i", "virtual", "--at", "1"])
        #expect(bad.status == 2, "\(bad)")
    }
}
