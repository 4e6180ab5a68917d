// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Testing

/// A file's `areas:`: named wall polygons, checked like every other field, and walls as segments.
@Suite("fleet areas:")
struct AreasFieldTests {
    static func fleet(_ areas: String) -> String {
        "name: hall\nareas: \(areas)\nbeacons:\n  - uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\n    major: 1\n    minor: 1\n"
    }

    @Test("several rooms, in order; walls close each polygon")
    func accepted() throws {
        let fleet = try ProfileLoader.parse(Self.fleet("[{name: a, walls: [[0, 0], [4, 0], [4, 3]]}, {name: b, walls: [[4, 0], [8, 0], [8, 3], [4, 3]]}]"),
                                            file: "hall.yaml")
        #expect(fleet.areas.map(\.name) == ["a", "b"])
        #expect(fleet.areas[0].walls.count == 3 && fleet.walls.count == 7)
        #expect(fleet.areas[0].walls.last == Wall(start: Position(x: 4, y: 3), end: Position(x: 0, y: 0)))
        let none = "name: hall\nbeacons:\n  - uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\n    major: 1\n    minor: 1\n"
        #expect(try ProfileLoader.parse(none, file: "hall.yaml").areas.isEmpty)
    }

    @Test("bad areas: file, line, column, field and what is allowed", arguments: [
        ("[]", "areas", 8, "must be a list of rooms"),
        ("[{walls: [[0, 0], [1, 0], [1, 1]]}]", "areas[0].name", 9, "an area needs a name"),
        ("[{name: a, walls: [[0, 0], [1, 0]]}]", "areas[0].walls", 26, "from 3 to 1000 corners, not 2"),
        ("[{name: a, walls: [[0, 0], [1, 0], [1, .nan]]}]", "areas[0].walls[2].y", 47, "from -1000000 to 1000000"),
        ("[{name: a, walls: [[0, 0], [1, 0], [1e7, 1]]}]", "areas[0].walls[2].x", 44, "from -1000000 to 1000000"),
        ("[{name: a, walls: [[0, 0], [1, 0], [1]]}]", "areas[0].walls[2]", 43, "a pair `[x, y]`"),
        ("[{name: a, walls: [[0, 0], [1, 1], [1, 0], [0, 1]]}]", "areas[0].walls", 26, "must not cross itself"),
        ("[{name: a, walls: [[0, 0], [2, 0], [1, 0]]}]", "areas[0].walls", 26, "must not cross itself"),
        ("[{name: a, walls: [[0, 0], [1, 0], [1, 1]]}, {name: a, walls: [[0, 0], [1, 0], [1, 1]]}]", "areas[1].name", 60, "names another area"),
        ("[{name: a, wall: [[0, 0], [1, 0], [1, 1]]}]", "areas[0].wall", 19, "did you mean `walls`"),
    ])
    func refused(areas: String, field: String, column: Int, message: String) throws {
        do {
            _ = try ProfileLoader.parse(Self.fleet(areas), file: "hall.yaml")
            Issue.record("areas: \(areas) was accepted")
        } catch {
            let issue = try #require(error.issues.first { $0.field == field })
            #expect(issue.location.file == "hall.yaml" && issue.location.line == 2 && issue.location.column == column, "\(error)")
            #expect(issue.message.contains(message), "\(error)")
        }
    }

    @Test("room-2m and station-160 ship with their floor plans, around their beacons")
    func shipped() throws {
        for (file, rooms) in [("room-2m.yaml", ["room"]), ("station-160.yaml", ["south hall", "north hall"])] {
            let fleet = try ProfileLoader.load(contentsOf: TestFiles.shipped(file))
            #expect(fleet.areas.map(\.name) == rooms)
            let xs = fleet.areas.flatMap(\.corners).map(\.x), ys = fleet.areas.flatMap(\.corners).map(\.y)
            for beacon in fleet.beacons {
                let p = try #require(beacon.position)
                #expect(xs.min()! <= p.x && p.x <= xs.max()! && ys.min()! <= p.y && p.y <= ys.max()!, "\(beacon.name)")
            }
        }
    }

    @Test("a scenario's areas add to its fleet's and are checked the same way, at the scenario's lines")
    func scenario() throws {
        let fleet = "fleet:\n  defaults: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1}\n  beacons:\n    - {name: a, minor: 1}\n  areas: [{name: hall, walls: [[0, 0], [4, 0], [4, 3]]}]\n"
        let good = try ScenarioLoader.parse(fleet + "areas: [{name: desk, walls: [[1, 1], [2, 1], [2, 2]]}]\nsteps:\n  - {at: 1s, hide: a}\n", file: "s.yaml")
        #expect(good.fleet.areas.map(\.name) == ["hall", "desk"])
        do {
            _ = try ScenarioLoader.parse(fleet + "areas: [{name: desk, walls: [[1, 1], [2, 1]]}]\nsteps:\n  - {at: 1s, hide: a}\n", file: "s.yaml")
            Issue.record("a room of two corners was accepted")
        } catch {
            let issue = try #require(error.issues.first)
            #expect(issue.location.file == "s.yaml" && issue.location.line == 6 && issue.field == "areas[0].walls", "\(error)")
        }
    }
}
