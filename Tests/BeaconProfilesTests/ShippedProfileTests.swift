// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio
import Foundation
import Testing
@testable import BeaconProfiles

/// The profiles in profiles/ are documentation users copy: they must load, and say what they claim.
@Suite struct ShippedProfileTests {
    @Test func everyShippedProfileValidates() throws {
        let files = try TestFiles.shippedProfiles()
        #expect(files.map(\.lastPathComponent).contains("example.yaml"))
        #expect(files.count >= 4)
        for file in files {
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try ProfileLoader.load(contentsOf: file.path) }
        }
        // Together too: no identity or address is shared between the shipped files.
        let fleets = try ProfileLoader.load(paths: files.map(\.path))
        #expect(fleets.count == files.count)
    }

    @Test func bm1HasAplixPublishedDefaults() throws {
        let fleet = try ProfileLoader.load(contentsOf: TestFiles.shipped("bm1.yaml"))
        #expect(fleet.name == nil)
        let beacon = try #require(fleet.beacons.first)
        #expect(fleet.beacons.count == 1)
        #expect(beacon.iBeacon!.measuredPower == -52)
        #expect(beacon.txPower == 0)
        #expect(beacon.intervalMilliseconds == 100)
        #expect(beacon.addressIsDerived)
        #expect(beacon.address.isStaticRandom)
    }

    @Test func roomIsATwoMetreSquare() throws {
        let fleet = try ProfileLoader.load(contentsOf: TestFiles.shipped("room-2m.yaml"))
        #expect(fleet.name == "room-2m")
        #expect(fleet.beacons.map(\.iBeacon!.major) == [1, 1, 1, 1])
        #expect(fleet.beacons.map(\.iBeacon!.minor) == [0, 1, 2, 3])
        #expect(fleet.beacons.map(\.position) == [
            Point(x: -1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 0), Point(x: 0, y: -1),
        ])
        // Opposite corners are 2 m apart.
        let p = fleet.beacons.compactMap(\.position)
        #expect(abs(p[0].x - p[2].x) == 2 && abs(p[1].y - p[3].y) == 2)
        #expect(Set(fleet.beacons.map(\.iBeacon!.uuid)).count == 1)
    }

    @Test func stationHas160DistinctBeaconsInFourRows() throws {
        let fleet = try ProfileLoader.load(contentsOf: TestFiles.shipped("station-160.yaml"))
        let beacons = fleet.beacons
        #expect(beacons.count == 160)
        #expect(beacons.map(\.iBeacon!.minor) == Array(1...160))
        #expect(Set(beacons.map(\.address)).count == 160)
        #expect(Set(beacons.map(\.name)).count == 160)
        #expect(beacons.first?.name == "station-001")
        #expect(beacons.last?.name == "station-160")
        #expect(beacons.allSatisfy { $0.address.isStaticRandom && $0.addressIsDerived })
        #expect(beacons[0].position == Point(x: 0, y: 0, z: 3))
        #expect(beacons[39].position == Point(x: 195, y: 0, z: 3))
        #expect(beacons[40].position == Point(x: 0, y: 10, z: 3))
        #expect(beacons[159].position == Point(x: 195, y: 30, z: 3))
    }

    @Test func exampleUsesEveryKey() throws {
        let text = try String(contentsOfFile: TestFiles.shipped("example.yaml"), encoding: .utf8)
        for key in ProfileKeys.beacon + ProfileKeys.fleet + ProfileKeys.range + ProfileKeys.position + ProfileKeys.tlm + ProfileKeys.patch {
            #expect(text.contains("\(key):"), "example.yaml does not show `\(key):`")
        }
        let fleet = try ProfileLoader.parse(text, file: "example.yaml")
        let lobby = try #require(fleet.beacons.first)
        #expect(lobby.name == "lobby")
        #expect(lobby.address == BluetoothAddress("C0:11:22:33:44:55"))
        #expect(!lobby.addressIsDerived)
        #expect(lobby.position == Point(x: 1.5, y: 2, z: 2.4))
        #expect(fleet.beacons[1].name == "example-10-2")
        #expect(fleet.beacons[1].flags == .generalDiscoverableSimultaneous)
        #expect(fleet.beacons[1].intervalMilliseconds == 152.5)
        let shelves = fleet.beacons[2..<10]
        #expect(shelves.map(\.name) == (100...107).map { "shelf-\($0)" })
        #expect(shelves.last?.address == BluetoothAddress("C0:DE:00:00:00:6B"))
        #expect(shelves.last?.position == Point(x: 3.5, y: 5))
        let others = fleet.beacons.dropFirst(10)
        #expect(others.map(\.format) == [.altBeacon, .eddystoneUID, .eddystoneURL, .iBeacon, .iBeacon])
        #expect(others.map(\.name) == ["example-10-3", "eddy-1", "eddy-url", "wrong-length", "raw-hex"])
        #expect(others.map { $0.rawData != nil } == [false, false, false, true, true])
        #expect(lobby.localName == "Lobby")
        #expect(others.compactMap(\.telemetry) == [TelemetryPlan(period: .seconds(10), duration: .seconds(1), batteryMillivolts: 3000,
                                                                  temperature: EddystoneTLM.fixedPoint(celsius: 21.5)!)])
    }
}
