// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Testing

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
