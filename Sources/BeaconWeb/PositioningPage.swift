// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconMaps
import BeaconPositioning
import BeaconRadio
import LiveView
import Synchronization

/// The live page of a run that positions a receiver (`walk`, `locate --live`): the plan (walls,
/// beacons), each beacon's ranging circle at the last fix, the estimate with its 1-sigma error
/// radius, the recent trail and the true position where the run knows it; and a table of the
/// beacons with what the last fix made of each. Fed by `PositioningEvent`s from any thread,
/// each of which tells ``changes`` (what the server follows); ``snapshot(beacons:)`` draws the
/// newest state (BeaconMaps' `SVGMap`). The plan is drawn once (again only when the legend gains
/// the true position); what moves (circles, trail, estimate, truth) is the snapshot's small
/// `layer`, drawn again only when an event changed it.
public final class PositioningPage: Sendable {
    private struct State {
        var fixes: [PositionFix] = []
        /// The true positions reported, oldest first (at most `PositioningPage/truthKept`).
        var truths: [(time: Double, position: Point)] = []
        var version = 0
        /// The moving layer as last drawn, and the event count it shows.
        var drawn: (version: Int, layer: String)?
        /// The plan as last drawn, and whether its legend has the true position.
        var map: (withTruth: Bool, map: SVGMap, svg: String)?
    }

    /// How many recent fixes the trail shows.
    public static let trailLength = 20
    static let truthKept = 400

    /// The page's first line.
    public let title: String
    private let plan: MapScene
    private let anchors: [BeaconAnchor]
    private let state = Mutex(State())
    /// Told of each event: the live page's server follows it (`LivePageServer/follow(_:refreshingEvery:_:)`).
    public let changes = LivePageChanges()

    /// `plan`: the rooms and the beacons (`MapScene/plan(of:title:label:style:)`: each beacon's
    /// marker id is its name); `anchors`: the positioned beacons the fixes range.
    public init(title: String, plan: MapScene, anchors: [BeaconAnchor]) {
        self.title = title
        self.plan = plan
        self.anchors = anchors
    }

    /// Takes one event of the run.
    public func record(_ event: PositioningEvent) {
        state.withLock { s in
            switch event {
            case .fix(let fix):
                s.fixes.append(fix)
                if s.fixes.count > Self.trailLength { s.fixes.removeFirst(s.fixes.count - Self.trailLength) }
            case let .truePosition(position, time):
                if s.truths.last?.position == position, s.truths.count > 1 { return }
                s.truths.append((time, position))
                if s.truths.count > Self.truthKept { s.truths.removeFirst(s.truths.count - Self.truthKept) }
            }
            s.version += 1
        }
        changes.changed()
    }

    /// The page now. `beacons`: each beacon's state as the run knows it (a fleet's board: on
    /// air, waiting, error), which colours its marker and fills the table's STATE; nil: the
    /// state is whether the last fix heard it.
    public func snapshot(beacons: [LivePageSnapshot.Beacon]? = nil) -> LivePageSnapshot {
        let (fixes, truths, version, cached, map) = state.withLock { s in
            (s.fixes, s.truths, s.version, s.drawn.flatMap { $0.version == s.version ? $0.layer : nil }, s.map)
        }
        let truth = TruePositions(truths).function
        // The plan: drawn once, and again when the legend gains the true position.
        let drawnPlan: (withTruth: Bool, map: SVGMap, svg: String)
        if let map, map.withTruth == !truths.isEmpty {
            drawnPlan = map
        } else {
            drawnPlan = drawPlan(withTruth: !truths.isEmpty)
            state.withLock { $0.map = drawnPlan }
        }
        let layer = cached ?? drawLayer(fixes: fixes, truth: truth, latest: truths.last?.position, on: drawnPlan.map)
        if cached == nil {
            // Kept unless newer events came in while it was drawn.
            state.withLock { s in
                if s.version == version { s.drawn = (version, layer) }
            }
        }
        let last = fixes.last
        let ranged = Dictionary((last?.ranges ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let states = Dictionary((beacons ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = last.flatMap { fix in truth.map { $0(fix.time) } } ?? truths.last?.position
        var columns = [LiveColumn("BEACON"), LiveColumn("STATE"), LiveColumn("RSSI", alignment: .right, dropOrder: 2),
                       LiveColumn("RANGE", alignment: .right)]
        if now != nil { columns.append(LiveColumn("TRUE DISTANCE", alignment: .right, dropOrder: 1)) }
        var pageBeacons: [LivePageSnapshot.Beacon] = []
        let rows = anchors.map { anchor in
            let range = ranged[anchor.name]
            let beacon = states[anchor.name]
                ?? LivePageSnapshot.Beacon(id: anchor.name, state: range == nil ? "not heard" : "ranged", status: range == nil ? .idle : .active)
            pageBeacons.append(beacon)
            var cells = [anchor.name, beacon.state,
                         range.map { NumberText.fixed($0.meanRSSI, places: 0) + " dBm" } ?? "–",
                         range.map { NumberText.fixed($0.distance, places: 2) + " m" } ?? "–"]
            if let now { cells.append(NumberText.fixed(anchor.position.distance(to: now), places: 2) + " m") }
            return LiveRow(cells, status: beacon.status == "problem" ? .problem : beacon.status == "active" ? .active : .idle)
        }
        let screen = LiveScreen(title: title, columns: columns, rows: rows, summary: Self.summary(last, truth: now))
        let names = anchors.map(\.name)
        return LivePageSnapshot(screen: screen, beacons: pageBeacons, beaconOfRow: { $0 < names.count ? names[$0] : nil }, svg: drawnPlan.svg, layer: layer)
    }

    /// The last line: the estimate and, where known, the true position and the error.
    static func summary(_ fix: PositionFix?, truth: Point?) -> String {
        guard let fix else {
            return truth.map { "no fix yet; true position (\(NumberText.fixed($0.x, places: 2)), \(NumberText.fixed($0.y, places: 2))) m" } ?? "no fix yet"
        }
        let e = fix.estimate
        var text = "estimate (\(NumberText.fixed(e.position.x, places: 2)), \(NumberText.fixed(e.position.y, places: 2))) m"
        text += e.errorRadius.map { " ± " + NumberText.fixed($0, places: 2) + " m" } ?? ""
        text += " from \(e.rangeCount) beacons at \(NumberText.fixed(fix.time, places: 1)) s"
        if let other = e.alternative {
            text += "; ambiguous: as good a fit at (\(NumberText.fixed(other.x, places: 2)), \(NumberText.fixed(other.y, places: 2))) m"
        }
        if let truth {
            text += "; true (\(NumberText.fixed(truth.x, places: 2)), \(NumberText.fixed(truth.y, places: 2))) m, error "
                + NumberText.fixed(e.position.distance(to: truth), places: 2) + " m"
        }
        return text
    }

    /// The plan with the legend of what the layer draws; the beacons' states are the page's
    /// classes on their markers, not drawn here.
    private func drawPlan(withTruth: Bool) -> (withTruth: Bool, map: SVGMap, svg: String) {
        var scene = plan
        scene.legendAlso = [.estimate, .ranging, .uncertainty, .trail] + (withTruth ? [.truth, .route, .miss] : [])
        let map = SVGMap(forLivePage: scene)
        return (withTruth, map, map.render())
    }

    /// What moves: the last fix's circles, the trail, the estimate, and the truth.
    private func drawLayer(fixes: [PositionFix], truth: ((Double) -> Point)?, latest: Point?, on map: SVGMap) -> String {
        var moving = MapScene(title: title)
        if fixes.isEmpty, let latest {
            // No fix yet: the true position alone.
            moving.markers.append(MapMarker(position: latest, style: .truth))
        }
        moving.addFixes(fixes, anchors: anchors, truth: truth)
        return map.layer(moving)
    }
}
