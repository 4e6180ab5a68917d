// SPDX-License-Identifier: GPL-2.0-or-later
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

    /// A projection of everything in `scene` (walls, markers, polylines; circles only by their
    /// centres, so one wild range does not shrink the room), with a margin of 8 % on each side.
    public init(fitting scene: MapScene, left: Double, top: Double) {
        var points = scene.walls.flatMap { [MapScene.point($0.start), MapScene.point($0.end)] } + scene.markers.map(\.position) + scene.polylines.flatMap(\.points)
        points += scene.circles.map(\.centre)
        if points.isEmpty { points = [PlanePoint(x: 0, y: 0)] }
        var minX = points.map(\.x).min()!, maxX = points.map(\.x).max()!
        var minY = points.map(\.y).min()!, maxY = points.map(\.y).max()!
        // A margin per axis, so a long concourse is not padded by its length above and below.
        let marginX = max(0.08 * (maxX - minX), 0.25), marginY = max(0.08 * (maxY - minY), 0.25)
        minX -= marginX; maxX += marginX; minY -= marginY; maxY += marginY
        self.minX = minX; self.maxX = maxX; self.minY = minY; self.maxY = maxY
        scale = min(Self.maximumWidth / (maxX - minX), Self.maximumHeight / (maxY - minY))
        self.left = left
        self.top = top
    }

    public var width: Double { (maxX - minX) * scale }
    public var height: Double { (maxY - minY) * scale }

    public func x(_ point: PlanePoint) -> Double { left + (point.x - minX) * scale }
    public func y(_ point: PlanePoint) -> Double { top + (maxY - point.y) * scale }
    public func x(_ position: Position) -> Double { x(MapScene.point(position)) }
    public func y(_ position: Position) -> Double { y(MapScene.point(position)) }

    /// The scale bar's length in metres: the 1-2-5 step whose bar is 80 to 200 pixels long.
    public var scaleBarMetres: Double {
        var step = 0.01
        while step * scale < 80 {
            for factor in [2.0, 2.5, 2.0] where step * scale < 80 { step *= factor }
        }
        return step
    }
}
