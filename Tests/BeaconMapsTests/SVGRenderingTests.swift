// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconPositioning
import BeaconProfiles
import Foundation
import Testing
import TestSupport

/// The SVG is well-formed (xmllint) and draws where the geometry says (rendered by
/// rsvg-convert, pixels read back from the PNG).
@Suite("SVG maps", .serialized)
struct SVGRenderingTests {
    static func room() throws -> BeaconFleet {
        try ProfileLoader.load(contentsOf: PackageRoot.path("profiles/room-2m.yaml"))
    }

    /// room-2m with room-east off air, room-south in error, an estimate and its circles.
    static func roomScene() throws -> MapScene {
        let fleet = try room()
        var scene = MapScene.plan(of: fleet, title: "room-2m <test> & \"quotes\"", style: {
            $0.name == "room-east" ? .offAir : $0.name == "room-south" ? .failed : .onAir
        })
        let anchors = BeaconAnchor.anchors(of: fleet)
        let estimate = PositionEstimate(position: PlanePoint(x: 0.3, y: 0.2), rmsResidual: 0.05, errorRadius: 0.1, rangeCount: 4, iterations: 3)
        let ranges = anchors.map { RangedAnchor(name: $0.name, meanRSSI: -60, samples: 10, distance: $0.position.distance(to: PlanePoint(x: 0.3, y: 0.2))) }
        let fixes = [PositionFix(windowStart: 0, windowEnd: 1, estimate: estimate, ranges: ranges)]
        scene.addFixes(fixes, anchors: anchors, truth: { _ in PlanePoint(x: 0.3, y: 0.25) })
        return scene
    }

    static func tool(_ name: String) throws -> URL {
        try #require(Executables.onPath(name), "\(name) is not installed (scripts/setup --tests installs it)")
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("beacon-maps-\(UUID().uuidString)-\(name)")
    }

    @Test("xmllint finds the SVG and the HTML page (polyglot: well-formed XML) well-formed, escapes and all")
    func wellFormed() throws {
        let xmllint = try Self.tool("xmllint")
        let map = SVGMap(try Self.roomScene())
        let svg = Self.temporary("room.svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        try Data(map.render().utf8).write(to: svg)
        let result = try Program.run(xmllint, ["--noout", svg.path])
        #expect(result.status == 0, "\(result.stderr)")
        let html = MapHTML.page(map, timeline: MapTimeline(duration: 10, initiallyOnAir: ["room-west"], changes: [(5, "room-east", true)]))
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").count == 2, "only the SVG namespace names a URL")
        #expect(!html.contains("src=") && !html.contains("href="), "nothing fetched")
        let page = Self.temporary("room.html")
        defer { try? FileManager.default.removeItem(at: page) }
        try Data(html.utf8).write(to: page)
        let parsed = try Program.run(xmllint, ["--noout", page.path])
        #expect(parsed.status == 0, "\(parsed.stderr)")
    }

    @Test("rendered to PNG: each beacon's marker is its state's colour where its position says, the background white")
    func pixels() throws {
        let rsvg = try Self.tool("rsvg-convert")
        let map = SVGMap(try Self.roomScene())
        let svg = Self.temporary("room.svg"), png = Self.temporary("room.png")
        defer { try? FileManager.default.removeItem(at: svg); try? FileManager.default.removeItem(at: png) }
        try Data(map.render().utf8).write(to: svg)
        let result = try Program.run(rsvg, ["--format", "png", "--output", png.path, svg.path])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGImage(contentsOf: png)
        #expect(image.width == Int(map.width.rounded()) && image.height == Int(map.height.rounded()))
        func pixel(at point: PlanePoint, dx: Double = 0) -> PNGImage.RGB {
            image.pixel(x: Int(map.projection.x(point) + dx), y: Int(map.projection.y(point)))
        }
        // room-west (-1, 0) on air: green; room-south (0, -1) in error: red; room-east (1, 0)
        // off air: a grey ring, white in its middle.
        #expect(pixel(at: PlanePoint(x: -1, y: 0)).isNear(0x1a, 0x98, 0x50), "\(pixel(at: PlanePoint(x: -1, y: 0)))")
        #expect(pixel(at: PlanePoint(x: 0, y: -1)).isNear(0xd7, 0x30, 0x27), "\(pixel(at: PlanePoint(x: 0, y: -1)))")
        #expect(pixel(at: PlanePoint(x: 1, y: 0)).isNear(0xff, 0xff, 0xff), "\(pixel(at: PlanePoint(x: 1, y: 0)))")
        #expect(pixel(at: PlanePoint(x: 1, y: 0), dx: 4.5).isNear(0x9e, 0x9e, 0x9e, tolerance: 40), "\(pixel(at: PlanePoint(x: 1, y: 0), dx: 4.5))")
        // The estimate (0.3, 0.2): blue.
        #expect(pixel(at: PlanePoint(x: 0.3, y: 0.2)).isNear(0x21, 0x66, 0xac), "\(pixel(at: PlanePoint(x: 0.3, y: 0.2)))")
        // The picture's corner: white.
        #expect(image.pixel(x: 2, y: image.height - 2).isNear(0xff, 0xff, 0xff))
    }
}

/// `play --map FILE.html`: the scenario's beacons appear and disappear along a slider.
@Suite("scenario timeline map")
struct ScenarioTimelineMapTests {
    @Test("hidden at the start, then shown and hidden in time order; the page carries the changes and is well-formed")
    func timeline() throws {
        let text = """
            fleet:
              name: room
              defaults: {uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 1}
              beacons:
                - {name: west, minor: 0, position: {x: -1, y: 0}}
                - {name: east, minor: 2, position: {x: 1, y: 0}}
            areas:
              - {name: room, walls: [[-1, -1], [1, -1], [1, 1], [-1, 1]]}
            hidden: [east]
            steps:
              - {at: 4s, hide: west}
              - {at: 2s, show: east}
            duration: 6s
            """
        let scenario = try ScenarioLoader.parse(text, file: "blink.yaml")
        let timeline = ScenarioTimeline(scenario)
        let map = MapTimeline(timeline)
        #expect(map.initiallyOnAir == ["west"] && map.duration == 6)
        #expect(map.changes.map { "\($0.time) \($0.id) \($0.onAir)" } == ["2.0 east true", "4.0 west false"])
        let scene = MapScene.scenario(timeline, title: "blink")
        #expect(scene.walls.count == 4)
        #expect(scene.markers.map(\.style) == [.onAir, .offAir])
        let page = MapHTML.page(SVGMap(scene), timeline: map)
        #expect(page.contains("const changes = [[2,\"east\",true],[4,\"west\",false]];"))
        let xmllint = try SVGRenderingTests.tool("xmllint")
        let file = SVGRenderingTests.temporary("blink.html")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(page.utf8).write(to: file)
        let result = try Program.run(xmllint, ["--noout", file.path])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
