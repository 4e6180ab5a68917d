// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconPositioning
import BeaconProfiles
import BeaconRadio
@testable import BeaconWeb
import LiveView
import Testing
import TestSupport

/// The page of a positioning run, fed events: the map shows what the last fix made of each
/// beacon and where the estimate and the truth are (the moving layer over the plan, which is
/// not drawn again); the table follows.
@Suite struct PositioningPageTests {
    static func page() throws -> (PositioningPage, [BeaconAnchor]) {
        let fleet = try ProfileLoader.load(contentsOf: PackageRoot.path("profiles/room-2m.yaml"))
        let anchors = BeaconAnchor.anchors(of: fleet)
        return (PositioningPage(title: "room", plan: .plan(of: fleet, title: "room"), anchors: anchors), anchors)
    }

    /// A fix at `estimate` from every anchor ranged at its true distance to `truth`.
    static func fix(_ anchors: [BeaconAnchor], estimate: Point, truth: Point, time: Double) -> PositionFix {
        let ranges = anchors.map { RangedAnchor(name: $0.name, meanRSSI: -60, samples: 3, distance: $0.position.distance(to: truth)) }
        return PositionFix(windowStart: time - 0.5, windowEnd: time + 0.5,
                           estimate: PositionEstimate(position: estimate, rmsResidual: 0.05, errorRadius: 0.2, rangeCount: ranges.count, iterations: 3),
                           ranges: ranges)
    }

    /// The value of `attribute` in the first `<g class="CLASS" …>` of the map.
    static func attribute(_ attribute: String, ofMarker style: String, in svg: String) -> Double? {
        guard let start = svg.range(of: "<g class=\"\(style)\"") else { return nil }
        let tag = svg[start.lowerBound...].prefix { $0 != ">" }
        guard let value = tag.range(of: "\(attribute)=\"") else { return nil }
        return Double(tag[value.upperBound...].prefix { $0 != "\"" })
    }

    @Test func aFixDrawsItsCirclesTheEstimateAndTheTruth() throws {
        let (page, anchors) = try Self.page()
        let empty = page.snapshot()
        #expect(empty.summary == "no fix yet")
        #expect(empty.layer.isEmpty && !empty.svg.contains("class=\"estimate\""))
        #expect(empty.beacons.allSatisfy { $0.state == "not heard" && $0.status == "idle" })

        let truth = Point(x: 0.5, y: 0.2)
        page.record(.truePosition(truth, time: 2))
        page.record(.fix(Self.fix(anchors, estimate: Point(x: 0.6, y: 0.25), truth: truth, time: 2)))
        let s = page.snapshot()
        #expect(s.layer.components(separatedBy: "class=\"ranging\"").count - 1 == anchors.count)
        #expect(s.layer.contains("class=\"uncertainty\""))
        #expect(Self.attribute("data-x", ofMarker: "estimate", in: s.layer) == 0.6)
        #expect(Self.attribute("data-y", ofMarker: "truth", in: s.layer) == 0.2)
        #expect(s.columns == ["BEACON", "STATE", "RSSI", "RANGE", "TRUE DISTANCE"])
        #expect(s.rows.count == anchors.count && s.rows.allSatisfy { $0.status == "active" && $0.cells[1] == "ranged" })
        #expect(s.summary.contains("estimate (0.60, 0.25) m ± 0.20 m from 4 beacons") && s.summary.contains("error 0.11 m"), "\(s.summary)")
        // Nothing new: the same map (drawn once, not again).
        #expect(page.snapshot() == s)
    }

    @Test func theRunsBeaconStatesColourTheMarkersAndFillTheTable() throws {
        let (page, anchors) = try Self.page()
        let states = anchors.enumerated().map { i, a in
            LivePageSnapshot.Beacon(id: a.name, state: i == 0 ? "off air" : "on air", status: i == 0 ? .idle : .active)
        }
        let s = page.snapshot(beacons: states)
        // The page colours the markers m-NAME by the states' classes: the map is not drawn again.
        #expect(s.svg == page.snapshot().svg && anchors.allSatisfy { s.svg.contains("id=\"m-\($0.name)\"") })
        #expect(s.beacons.map(\.status) == ["idle"] + Array(repeating: "active", count: anchors.count - 1))
        #expect(s.rows.map { $0.cells[1] } == states.map(\.state))
        #expect(s.beacons == states)
    }

    @Test func theTrailKeepsTheRecentFixesOnly() throws {
        let (page, anchors) = try Self.page()
        for i in 0..<(PositioningPage.trailLength + 5) {
            let p = Point(x: Double(i) * 0.05, y: 0)
            page.record(.fix(Self.fix(anchors, estimate: p, truth: p, time: Double(i))))
        }
        let layer = page.snapshot().layer
        let trail = try #require(layer.range(of: "class=\"trail\" points=\"")).upperBound
        let points = layer[trail...].prefix { $0 != "\"" }.split(separator: " ")
        #expect(points.count == PositioningPage.trailLength)
    }

    /// walk --web: each fix changes the small layer only; the map (walls, beacons) stays as it
    /// was, so the server does not send it again. Each event tells the page's changes.
    @Test func fixesMoveTheLayerAndLeaveTheMap() throws {
        let (page, anchors) = try Self.page()
        #expect(page.changes.take() == nil)
        page.record(.truePosition(Point(x: 0, y: 0), time: 0))
        #expect(page.changes.take() != nil, "an event is a change")
        var last: LivePageSnapshot?
        for i in 1...3 {
            let p = Point(x: 0.2 * Double(i), y: 0.1)
            page.record(.truePosition(p, time: Double(i)))
            page.record(.fix(Self.fix(anchors, estimate: p, truth: p, time: Double(i))))
            #expect(page.changes.take() != nil)
            let s = page.snapshot()
            #expect(abs((Self.attribute("data-x", ofMarker: "estimate", in: s.layer) ?? .nan) - p.x) < 0.001)
            if let last {
                #expect(s.svg == last.svg, "the map is the same")
                #expect(s.layer != last.layer)
            }
            #expect(s.layer.utf8.count * 2 < s.svg.utf8.count, "the layer (\(s.layer.utf8.count) bytes) is small next to the map (\(s.svg.utf8.count))")
            // The legend names what the layer draws.
            #expect(s.svg.contains(MapStyle.estimate.legendText) && s.svg.contains(MapStyle.ranging.legendText))
            last = s
        }
    }
}
