// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
@testable import VirtualController
import BeaconCodec
import BeaconRadio
import HCI

/// Walls on the virtual air: the one crossing count (BeaconRadio's `Wall`) and the loss a
/// receiver measures behind them.
@Suite("virtual air walls")
struct AirWallTests {
    /// A 4 × 4 m room with its corner at the origin.
    static let room = [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 4), Point(x: 0, y: 4)]
    static var roomWalls: [Wall] { room.indices.map { Wall(start: room[$0], end: room[($0 + 1) % room.count]) } }

    @Test("the crossing count: none, one, two, through a corner, along a wall, z ignored")
    func crossings() {
        let walls = Self.roomWalls
        #expect(Wall.count(walls, between: Point(x: 1, y: 1), and: Point(x: 3, y: 3)) == 0, "inside the room")
        #expect(Wall.count(walls, between: Point(x: 10, y: 10), and: Point(x: 10, y: -10)) == 0, "outside, beside it")
        #expect(Wall.count(walls, between: Point(x: 2, y: 2), and: Point(x: 6, y: 2)) == 1, "out through the east wall")
        #expect(Wall.count(walls, between: Point(x: -2, y: 2), and: Point(x: 6, y: 2)) == 2, "right through the room")
        // Through the corner (4, 4): the line touches both walls that meet there.
        #expect(Wall.count(walls, between: Point(x: 2, y: 2), and: Point(x: 6, y: 6)) == 2, "through a corner")
        // Along the south wall, from outside the room: it meets the south wall and both walls at its ends.
        #expect(Wall.count(walls, between: Point(x: -1, y: 0), and: Point(x: 5, y: 0)) == 3, "along a wall")
        #expect(Wall.count(walls, between: Point(x: 2, y: 2, z: 3), and: Point(x: 6, y: 2, z: 0)) == 1, "heights ignored")
        // A beacon mounted on the wall is not behind it; the far wall still counts.
        #expect(Wall.count(walls, between: Point(x: 4, y: 2), and: Point(x: 2, y: 2)) == 0, "mounted on the wall")
        #expect(Wall.count(walls, between: Point(x: 4, y: 2), and: Point(x: -1, y: 2)) == 1, "mounted on one wall, heard through the other")
        #expect(Wall.count([], between: Point(x: 0, y: 0), and: Point(x: 9, y: 9)) == 0, "no walls")
    }

    /// An iBeacon advertising event (measured power −59 dBm) from `position`.
    static func transmission(from position: Point) -> AirTransmission {
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
            + [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
            + [0x00, 0x01, 0x00, 0x02, 0xC5]
        return AirTransmission(pdu: .advNonconnInd, address: BluetoothAddress(0xC1_02_03_04_05_06), addressType: .random,
                               data: data, txPower: 0, position: position)
    }

    static func rssi(_ channel: AirChannel, from beacon: Point, at receiver: Point) throws -> Int8 {
        var reception = AirReception(channel: channel)
        let reports = reception.take(transmission(from: beacon), at: receiver)
        return try #require(reports.first).1
    }

    @Test("a clean channel's exponent counts, with and without walls (it draws nothing)")
    func cleanExponent() throws {
        // −59 − 40·log₁₀(4) = −83.08; a wall of 5 dB on the way: −88.08.
        #expect(try Self.rssi(AirChannel(exponent: 4), from: Point(x: 0, y: 0), at: Point(x: 4, y: 0)) == -83)
        let walled = AirChannel(exponent: 4, wallLoss: 5, walls: [Wall(start: Point(x: 2, y: -5), end: Point(x: 2, y: 5))])
        #expect(try Self.rssi(walled, from: Point(x: 0, y: 0), at: Point(x: 4, y: 0)) == -88)
    }

    @Test("behind one wall the RSSI is exactly wall_db lower than at the same distance without it", arguments: [3.0, 7.0, 13.0])
    func oneWall(wallDB: Double) throws {
        let wall = [Wall(start: Point(x: 2, y: -5), end: Point(x: 2, y: 5))]
        let channel = AirChannel(wallLoss: wallDB, walls: wall, seed: 11)
        let open = try Self.rssi(channel, from: Point(x: 0, y: 0), at: Point(x: -4, y: 0))
        let behind = try Self.rssi(channel, from: Point(x: 0, y: 0), at: Point(x: 4, y: 0))
        // −59 − 20·log₁₀(4) = −71.04: −71 dBm in the open.
        #expect(open == -71)
        #expect(Double(open) - Double(behind) == wallDB)
        // Two walls: twice the loss.
        let twice = AirChannel(wallLoss: wallDB, walls: wall + [Wall(start: Point(x: 3, y: -5), end: Point(x: 3, y: 5))], seed: 11)
        #expect(Double(open) - Double(try Self.rssi(twice, from: Point(x: 0, y: 0), at: Point(x: 4, y: 0))) == 2 * wallDB)
    }

    @Test("with noise, the same seed gives the same draws shifted by exactly wall_db")
    func noisyOneWall() throws {
        let wall = [Wall(start: Point(x: 2, y: -5), end: Point(x: 2, y: 5))]
        // Shadowing, but no fading or loss, so every packet arrives; the same seed draws the same numbers.
        let noisy = AirChannel(shadowingSigma: 4, wallLoss: 10, walls: wall, seed: 5)
        var open = AirReception(channel: noisy), behind = AirReception(channel: noisy)
        for _ in 0..<50 {
            let a = try #require(open.take(Self.transmission(from: Point(x: 0, y: 0)), at: Point(x: -4, y: 0)).first).1
            let b = try #require(behind.take(Self.transmission(from: Point(x: 0, y: 0)), at: Point(x: 4, y: 0)).first).1
            // Rounding happens after the wall, and a whole-dB wall moves it by whole dB.
            #expect(Int(a) - Int(b) == 10)
        }
    }

    @Test("clean ignores declared walls; walls do nothing at 0 dB or with none declared")
    func cleanHasNoWalls() throws {
        let wall = [Wall(start: Point(x: 2, y: -5), end: Point(x: 2, y: 5))]
        #expect(AirChannel.clean.wallLoss == 0)
        var clean = AirChannel.clean
        clean.walls = wall
        #expect(clean.isClean)
        let free = try Self.rssi(.clean, from: Point(x: 0, y: 0), at: Point(x: 4, y: 0))
        #expect(try Self.rssi(clean, from: Point(x: 0, y: 0), at: Point(x: 4, y: 0)) == free)
        #expect(try Self.rssi(AirChannel(wallLoss: 10), from: Point(x: 0, y: 0), at: Point(x: 4, y: 0)) == free)
        #expect(AirChannel.presets.allSatisfy { $0.wallLoss == 0 }, "walls are opt-in: the presets' exponents already include partitions")
        #expect(clean.wallAttenuation(from: nil, to: Point(x: 4, y: 0)) == 0)
    }
}
