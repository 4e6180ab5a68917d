// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconPositioning

extension MapScene {
    /// Adds what `locate` found: the trail of estimates, the last fix's ranging circle around
    /// each beacon it used, its estimate with the 1-sigma error radius, and, where the true
    /// position is known (`truth` at a fix's time), the true route, the true position at the
    /// last fix and a line from each estimate to the truth at its time (its error).
    public mutating func addFixes(_ fixes: [PositionFix], anchors: [BeaconAnchor], truth: ((Double) -> Point)? = nil) {
        guard let last = fixes.last else { return }
        let positions = Dictionary(anchors.map { ($0.name, $0.position) }, uniquingKeysWith: { first, _ in first })
        let height = last.estimate.position.z
        for range in last.ranges {
            guard let centre = positions[range.name], range.distance.isFinite else { continue }
            // A slant range to a beacon mounted above (or below) the receiver's plane meets the
            // plane in a smaller circle.
            let dz = centre.z - height
            let radius = max(range.distance * range.distance - dz * dz, 0).squareRoot()
            circles.append(MapCircle(centre: centre.onPlane, radius: radius, style: .ranging))
        }
        if let radius = last.estimate.errorRadius, radius.isFinite, radius > 0 {
            circles.append(MapCircle(centre: last.estimate.position, radius: radius, style: .uncertainty))
        }
        if fixes.count > 1 { polylines.append(MapPolyline(points: fixes.map(\.estimate.position), style: .trail)) }
        if let truth {
            var errors: [Double] = []
            for fix in fixes {
                let real = truth(fix.time)
                errors.append(fix.estimate.position.distance(to: real))
                polylines.append(MapPolyline(points: [fix.estimate.position, real], style: .miss))
            }
            let route = fixes.map { truth($0.time) }
            if Set(route).count > 1 { polylines.append(MapPolyline(points: route, style: .route)) }
            markers.append(MapMarker(position: truth(last.time), style: .truth, label: "true position"))
            let mean = errors.reduce(0, +) / Double(errors.count)
            notes.append("\(fixes.count) fixes; error mean \(SVGText.metres(mean)), largest \(SVGText.metres(errors.max() ?? 0))")
        }
        let p = last.estimate.position
        let radius = last.estimate.errorRadius.map { " ± " + SVGText.metres($0) } ?? ""
        markers.append(MapMarker(position: p.onPlane, style: .estimate, label: "estimate"))
        notes.append("last fix at \(SVGText.number(last.time)) s: (\(SVGText.metres(p.x)), \(SVGText.metres(p.y)))\(radius) from \(last.ranges.count) beacons")
        if let other = last.estimate.alternative {
            markers.append(MapMarker(position: other.onPlane, style: .estimate, label: "as good a fit"))
            notes.append("ambiguous: (\(SVGText.metres(other.x)), \(SVGText.metres(other.y))) fits the ranges as well (beacons near one line)")
        }
    }

    /// Adds a walk: its route, the walker where it is, and per point the estimate a receiver
    /// makes there with a line to the walker's true position (its error).
    public mutating func addWalk(route: [Point], walker: Point?, estimates: [(truth: Point, estimate: Point)] = []) {
        if route.count > 1 { polylines.append(MapPolyline(points: route, style: .route)) }
        for pair in estimates {
            polylines.append(MapPolyline(points: [pair.estimate, pair.truth], style: .miss))
            markers.append(MapMarker(position: pair.estimate, style: .estimate))
        }
        if !estimates.isEmpty {
            let errors = estimates.map { $0.estimate.distance(to: $0.truth) }
            notes.append("\(estimates.count) estimates along the route; error mean \(SVGText.metres(errors.reduce(0, +) / Double(errors.count))), largest \(SVGText.metres(errors.max() ?? 0))")
        }
        if let walker { markers.append(MapMarker(position: walker, style: .walker, label: "walker")) }
    }
}
