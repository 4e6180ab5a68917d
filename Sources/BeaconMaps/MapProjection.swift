// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconPositioning
import BeaconProfiles

/// Metres on the plan → pixels on the picture: x to the right, y up (so the picture's y is
/// flipped), one scale for both axes, so circles stay round and distances read off the scale bar.
public struct MapProjection: Hashable, Sendable {
    /// The plan's extent, metres.
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    /// Pixels per metre.
    public var scale: Double
    /// Where the plan's top-left corner (minX, maxY) lands, pixels.
    public var left: Double, top: Double

    /// The largest plan drawn, pixels: fits a laptop screen, and A4 in landscape at about 5 px a
    /// millimetre. A small room is enlarged to this; a large floor shrunk.
    public static let maximumWidth = 1400.0
    public static let maximumHeight = 800.0

    /// The largest plan a live page draws, pixels. The page shows its map in a window as narrow
    /// as a phone's (390 px); a plan drawn for A4 would be shrunk to a quarter there, its 11 px
    /// labels to 3 px. Drawn this small, the whole map (plan, margins, legend: about 640 px
    /// wide) needs shrinking only to ``SVGMap/smallestLegibleScale`` to stay legible, and the
    /// page scrolls the little that is left rather than shrink it further. On a laptop the map
    /// then shows about at its drawn size, text at the 11 px it was laid out for.
    public static let livePageLargest = (width: 480.0, height: 400.0)

    /// The largest plan a live page draws for `scene`, pixels: ``livePageLargest``, enlarged
    /// for a dense plan until each marker has about 40 × 40 px of plan (else station-160's
    /// beacons, 5 m apart, would be drawn 10 px apart, their 12 px discs on one another, every
    /// label pushed off to the side), but never beyond the printed map's size: the page scrolls.
    public static func livePageLargest(for scene: MapScene) -> (width: Double, height: Double) {
        let printed = MapProjection(fitting: scene, left: 0, top: 0)
        let metresWide = printed.maxX - printed.minX, metresHigh = printed.maxY - printed.minY
        let fitted = min(livePageLargest.width / metresWide, livePageLargest.height / metresHigh)
        let uncrowded = 40 * (Double(scene.markers.count) / (metresWide * metresHigh)).squareRoot()
        let scale = min(max(fitted, uncrowded), printed.scale)
        return (scale * metresWide, scale * metresHigh)
    }

    /// A projection of everything in `scene` (walls, markers, polylines; circles only by their
    /// centres, so one wild range does not shrink the room), with a margin of 8 % on each side,
    /// enlarged or shrunk to fill `largest` (pixels) in one of its dimensions.
    public init(fitting scene: MapScene, left: Double, top: Double,
                largest: (width: Double, height: Double) = (maximumWidth, maximumHeight)) {
        var points = scene.walls.flatMap { [$0.start.onPlane, $0.end.onPlane] } + scene.markers.map(\.position) + scene.polylines.flatMap(\.points)
        points += scene.circles.map(\.centre)
        if points.isEmpty { points = [Point(x: 0, y: 0)] }
        var minX = points.map(\.x).min()!, maxX = points.map(\.x).max()!
        var minY = points.map(\.y).min()!, maxY = points.map(\.y).max()!
        // A margin per axis, so a long concourse is not padded by its length above and below.
        let marginX = max(0.08 * (maxX - minX), 0.25), marginY = max(0.08 * (maxY - minY), 0.25)
        minX -= marginX; maxX += marginX; minY -= marginY; maxY += marginY
        self.minX = minX; self.maxX = maxX; self.minY = minY; self.maxY = maxY
        scale = min(largest.width / (maxX - minX), largest.height / (maxY - minY))
        self.left = left
        self.top = top
    }

    public var width: Double { (maxX - minX) * scale }
    public var height: Double { (maxY - minY) * scale }

    public func x(_ point: Point) -> Double { left + (point.x - minX) * scale }
    public func y(_ point: Point) -> Double { top + (maxY - point.y) * scale }

    /// The scale bar's length in metres: the 1-2-5 step whose bar is 80 to 200 pixels long.
    public var scaleBarMetres: Double {
        var step = 0.01
        while step * scale < 80 {
            for factor in [2.0, 2.5, 2.0] where step * scale < 80 { step *= factor }
        }
        return step
    }
}
