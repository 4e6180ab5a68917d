// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconProfiles
import BeaconRadio
import BeaconScanner
import BeaconScenarios
import Foundation
import TestSupport
import Testing

/// The walk model is deterministic: positions from time, measured powers from distances.
@Suite("Walk model")
struct WalkModelTests {
    static func room() throws -> [BeaconProfile] {
        try ProfileLoader.load(contentsOf: PackageRoot.path("profiles/room-2m.yaml")).beacons
    }

    @Test("paths: spaces or semicolons, built-in names, clear errors")
    func paths() throws {
        #expect(try WalkPath(parsing: "0,0 1,0.5").waypoints == [Point(x: 0, y: 0), Point(x: 1, y: 0.5)])
        #expect(try WalkPath(parsing: "0,0;1,0.5;  2,2").waypoints.count == 3)
        #expect(try WalkPath(parsing: "square") == WalkPath.named["square"])
        #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "0,0 1") }
        #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "   ") }
        #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "0,0 nan,1") }
    }

    @Test("the walker's position: at speed along the segments, held at the end, or looping back to the start")
    func route() throws {
        let path = try WalkPath(parsing: "0,0 2,0 2,1")
        let once = WalkRoute(path: path, speed: 0.5, loops: false)
        #expect(once.duration == 6)
        #expect(once.position(at: 2) == Point(x: 1, y: 0))
        #expect(once.position(at: 5) == Point(x: 2, y: 0.5))
        #expect(once.position(at: 60) == Point(x: 2, y: 1))
        let loop = WalkRoute(path: path, speed: 1, loops: true)
        #expect(loop.duration == nil)
        #expect(abs(loop.lapDuration - (3 + 5.0.squareRoot())) < 1e-12, "closed back to the start")
        let p = loop.position(at: loop.lapDuration + 1)
        #expect(abs(p.x - 1) < 1e-9 && abs(p.y) < 1e-9, "second lap")
    }

    @Test("every positioned beacon gets the measured power whose estimate is the walker's distance")
    func beacons() throws {
        let room = try Self.room()
        let model = WalkModel(fleet: room, route: WalkRoute(path: try WalkPath(parsing: "-0.5,-0.5 0.5,-0.5 0.5,0.5"), speed: 0.25, loops: false),
                              distanceModel: .freeSpace, rssiAtPhone: -50)
        for t in stride(from: 0.0, through: 8, by: 0.5) {
            let (walker, beacons) = model.beacons(at: t)
            #expect(beacons.map(\.name) == room.map(\.name))
            for b in beacons {
                let truth = walker.distance(to: Point(x: b.position!.x, y: b.position!.y))
                let estimate = DistanceModel.freeSpace.distance(rssi: -50, measuredPower: b.iBeacon!.measuredPower)!
                // A 1 dB step is 12 % at n = 2: the nearest value is within 6 %.
                #expect(abs(log(estimate / max(truth, WalkModel.minimumDistance))) <= log(10.0) / 40 + 1e-9, "\(b.name) at \(t) s: \(estimate) vs \(truth)")
                #expect(b.address == room.first { $0.name == b.name }!.address && b.iBeacon!.major == 1)
            }
        }
        // Deterministic: the same time, the same fleet.
        #expect(model.beacons(at: 3.3).beacons == model.beacons(at: 3.3).beacons)
    }

    @Test("with TX power control: full power up to 1 m, lower in 3 dB steps, the measured power compensating")
    func txPower() throws {
        let control = WalkModel.TxPowerControl(reference: 10, minimum: -20)
        #expect(control.power(forDistance: 0.5) == 10)
        #expect(control.power(forDistance: 2) == 4, "6.02 dB at 2 m: two whole 3 dB steps")
        #expect(control.power(forDistance: 1.9) == 7, "5.6 dB: one whole step")
        #expect(control.power(forDistance: 1000) == -20, "never below the minimum")
        let model = WalkModel(fleet: try Self.room(), route: WalkRoute(path: try WalkPath(parsing: "0,0"), speed: 1, loops: false),
                              distanceModel: .freeSpace, rssiAtPhone: -50, txPower: control)
        let s = model.setting(forDistance: 4)
        #expect(s.txPower == Int8(control.power(forDistance: 4)))
        #expect(s.expectedRSSI == -50 - Double(10 - control.power(forDistance: 4)))
        #expect(abs(log(s.estimatedDistance / 4)) <= log(10.0) / 40 + 1e-9)
    }
}
