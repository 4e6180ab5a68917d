// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Saving beacons as a fleet profile (`scan --save`): the name a path gives, nothing for no
/// beacons, and text that reads back to the same beacons.
@Suite struct FleetSaveTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    static func beacon(_ name: String, minor: UInt16) -> BeaconProfile {
        BeaconProfile(name: name, beacon: IBeacon(uuid: uuid, major: 1, minor: minor, measuredPower: -61))
    }

    @Test(arguments: [("/tmp/site.yaml", "site"), ("lobby.yml", "lobby"), ("dir/no-extension", "no-extension"), ("/tmp/.yaml", ".yaml"), ("", "heard")])
    func theFileNamesTheFleet(path: String, name: String) {
        #expect(FleetWriter.fleetName(forPath: path) == name)
    }

    @Test func theTextReadsBackToTheSameBeacons() throws {
        let beacons = [Self.beacon("site-1", minor: 1), Self.beacon("site-2", minor: 2)]
        let text = try FleetWriter.checkedYAML(name: "site", beacons: beacons, comment: "two heard", file: "site.yaml")
        #expect(text.hasPrefix("# two heard\nname: \"site\"\n"))
        let fleet = try ProfileLoader.parse(text, file: "site.yaml")
        #expect(fleet.beacons.map(\.name) == ["site-1", "site-2"])
        #expect(fleet.beacons.map(\.beacon) == beacons.map(\.beacon))
    }

    @Test func noBeaconsIsNoProfile() {
        #expect { try FleetWriter.checkedYAML(name: "site", beacons: [], file: "site.yaml") } throws: { error in
            if case .noBeacons = error as? FleetWriter.SaveError { true } else { false }
        }
    }

    /// A name the loader refuses (a control character) is caught before anything is written.
    @Test func textThatDoesNotReadBackIsRefused() {
        #expect { try FleetWriter.checkedYAML(name: "site", beacons: [Self.beacon("bell\u{7}", minor: 1)], file: "site.yaml") } throws: { error in
            if case .doesNotReadBack = error as? FleetWriter.SaveError { true } else { false }
        }
    }
}

/// `FleetWriter.save` (what `scan --save` calls): the checked profile written whole, replacing a
/// regular file (keeping its mode), never through a symbolic link.
@Suite struct FleetSaveFileTests {
    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static let beacons = [FleetSaveTests.beacon("site-1", minor: 1), FleetSaveTests.beacon("site-2", minor: 2)]

    @Test func aSavedFleetReadsBackAndReplacesTheFileWholeKeepingItsMode() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/site.yaml"
        try "old text that is longer than nothing at all\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o640) == 0)
        try FleetWriter.save(name: "site", beacons: Self.beacons, to: path)
        let fleet = try ProfileLoader.load(contentsOf: path)
        #expect(fleet.beacons.map(\.name) == ["site-1", "site-2"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("old text"))
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o640)
        // Only the profile is left in the folder: the temporary file was renamed into place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["site.yaml"])
    }

    @Test func aLinkIsRefusedAndItsTargetLeftAlone() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not a profile\n".write(toFile: folder + "/elsewhere", atomically: false, encoding: .utf8)
        #expect(symlink(folder + "/elsewhere", folder + "/site.yaml") == 0)
        #expect { try FleetWriter.save(name: "site", beacons: Self.beacons, to: folder + "/site.yaml") } throws: { error in
            if case .cannotWrite(.symbolicLink) = error as? FleetWriter.SaveError { true } else { false }
        }
        #expect(try String(contentsOfFile: folder + "/elsewhere", encoding: .utf8) == "not a profile\n")
    }

    @Test func noBeaconsWritesNothing() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect { try FleetWriter.save(name: "site", beacons: [], to: folder + "/site.yaml") } throws: { error in
            if case .noBeacons = error as? FleetWriter.SaveError { true } else { false }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/site.yaml"))
    }
}
