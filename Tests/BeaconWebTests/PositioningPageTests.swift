// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconPositioning
import BeaconProfiles
import BeaconRadio
import BeaconWeb
import LiveView
import Testing
import TestSupport

/// The page of a positioning run, fed events: the map shows what the last fix made of each
/// beacon and where the estimate and the truth are; the table follows.
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
        #expect(!empty.svg.contains("class=\"estimate\""))
        #expect(empty.beacons.allSatisfy { $0.state == "not heard" && $0.status == "idle" })

        let truth = Point(x: 0.5, y: 0.2)
        page.record(.truePosition(truth, time: 2))
        page.record(.fix(Self.fix(anchors, estimate: Point(x: 0.6, y: 0.25), truth: truth, time: 2)))
        let s = page.snapshot()
        #expect(s.svg.components(separatedBy: "class=\"ranging\"").count - 1 == anchors.count)
        #expect(s.svg.contains("class=\"uncertainty\""))
        #expect(Self.attribute("data-x", ofMarker: "estimate", in: s.svg) == 0.6)
        #expect(Self.attribute("data-y", ofMarker: "truth", in: s.svg) == 0.2)
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
        #expect(s.svg.contains("<g class=\"offAir\" id=\"m-\(anchors[0].name)\""))
        #expect(s.svg.contains("<g class=\"onAir\" id=\"m-\(anchors[1].name)\""))
        #expect(s.rows.map { $0.cells[1] } == states.map(\.state))
        #expect(s.beacons == states)
    }

    @Test func theTrailKeepsTheRecentFixesOnly() throws {
        let (page, anchors) = try Self.page()
        for i in 0..<(PositioningPage.trailLength + 5) {
            let p = Point(x: Double(i) * 0.05, y: 0)
            page.record(.fix(Self.fix(anchors, estimate: p, truth: p, time: Double(i))))
        }
        let svg = page.snapshot().svg
        let trail = try #require(svg.range(of: "class=\"trail\" points=\"")).upperBound
        let points = svg[trail...].prefix { $0 != "\"" }.split(separator: " ")
        #expect(points.count == PositioningPage.trailLength)
    }
}
