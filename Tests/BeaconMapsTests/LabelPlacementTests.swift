// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconMaps
import BeaconProfiles
import Testing
import TestSupport

/// Labels never overlap, however dense the beacons: station-160's 160 names, and a pile of
/// labels on one point.
@Suite("map labels")
struct LabelPlacementTests {
    static func station() throws -> BeaconFleet {
        try ProfileLoader.load(contentsOf: PackageRoot.path("profiles/station-160.yaml"))
    }

    static func assertNoOverlap(_ map: SVGMap) {
        let boxes = map.labels.map(\.box)
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                #expect(!boxes[i].intersects(boxes[j]), "labels \(i) and \(j) overlap: \(boxes[i]) \(boxes[j])")
            }
            // Inside the picture.
            #expect(boxes[i].x >= 0 && boxes[i].y >= 0 && boxes[i].x + boxes[i].width <= map.width && boxes[i].y + boxes[i].height <= map.height)
        }
    }

    @Test("station-160: 160 labels, none overlapping another label or a beacon, all inside the picture")
    func station160() throws {
        let map = SVGMap(MapScene.plan(of: try Self.station(), title: "station"))
        #expect(map.labels.count == 160)
        Self.assertNoOverlap(map)
        let markers = map.scene.markers.map {
            LabelBox(centreX: map.projection.x($0.position), centreY: map.projection.y($0.position), width: 12, height: 12)
        }
        for box in map.labels.map(\.box) { #expect(!markers.contains(where: box.intersects)) }
        // Readable on a laptop and on A4: the picture stays within a screen's width or two.
        #expect(map.width <= 2000)
    }

    @Test("a live page's map: room-2m small enough for a phone at the legible scale; station-160 no more crowded than that, and no larger than printed")
    func livePage() throws {
        let room = MapScene.plan(of: try ProfileLoader.load(contentsOf: PackageRoot.path("profiles/room-2m.yaml")), title: "room")
        let printedRoom = SVGMap(room), liveRoom = SVGMap(forLivePage: room)
        // A phone's 390 px window (less the page's margins) scrolls at most a fifth of it.
        #expect(liveRoom.width * SVGMap.smallestLegibleScale <= 1.4 * 374, "\(liveRoom.width) px wide")
        #expect(liveRoom.width < printedRoom.width && liveRoom.projection.scale < printedRoom.projection.scale)
        let station = MapScene.plan(of: try Self.station(), title: "station")
        let printed = SVGMap(station), live = SVGMap(forLivePage: station)
        Self.assertNoOverlap(live)
        #expect(live.labels.count == 160)
        // Beacons 5 m apart stay two markers (24 px) apart or more, and the map no larger than printed.
        #expect(5 * live.projection.scale >= 24, "\(live.projection.scale) px/m")
        #expect(live.projection.scale <= printed.projection.scale && live.width <= printed.width)
    }

    @Test("twenty labels on one point: all placed apart, the far ones with leader lines")
    func pile() {
        var scene = MapScene(title: "pile")
        for i in 0..<20 { scene.markers.append(MapMarker(position: .init(x: 0, y: 0), style: .onAir, label: "beacon number \(i)")) }
        scene.walls = [Wall(start: Point(x: -1, y: -1), end: Point(x: 1, y: 1))]
        let map = SVGMap(scene)
        #expect(map.labels.count == 20)
        Self.assertNoOverlap(map)
        #expect(map.labels.contains { $0.needsLeader })
        #expect(map.render().contains("<g id=\"leaders\">"))
    }

    @Test("the box test: overlap, touching, apart")
    func boxes() {
        let a = LabelBox(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersects(LabelBox(x: 5, y: 5, width: 10, height: 10)))
        #expect(!a.intersects(LabelBox(x: 10, y: 0, width: 10, height: 10)))
        #expect(!a.intersects(LabelBox(x: 0, y: 20, width: 10, height: 10)))
    }
}
