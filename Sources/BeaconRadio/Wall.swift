// SPDX-License-Identifier: GPL-2.0-or-later

/// One straight wall on the floor plan (z ignored): a side of a profile's area polygon
/// (BeaconProfiles' `Area`), what a map draws and what the virtual air attenuates by
/// (``AirChannel/wallLoss``). In BeaconRadio next to ``Point`` so profiles and the air share
/// one segment test.
public struct Wall: Hashable, Sendable {
    public var start: Point
    public var end: Point

    public init(start: Point, end: Point) {
        self.start = start
        self.end = end
    }

    /// Whether two walls cross or touch. Walls that share an end point (neighbours in a polygon)
    /// touch there; callers that look for a self-intersecting polygon skip neighbours.
    public func intersects(_ other: Wall) -> Bool {
        let o1 = Self.orientation(start, end, other.start), o2 = Self.orientation(start, end, other.end)
        let o3 = Self.orientation(other.start, other.end, start), o4 = Self.orientation(other.start, other.end, end)
        if o1 != o2 && o3 != o4 { return true }
        return contains(other.start) || contains(other.end) || other.contains(start) || other.contains(end)
    }

    /// Whether `p` lies on the wall (on the plane; ends included).
    public func contains(_ p: Point) -> Bool {
        Self.orientation(start, end, p) == 0
            && min(start.x, end.x) <= p.x && p.x <= max(start.x, end.x) && min(start.y, end.y) <= p.y && p.y <= max(start.y, end.y)
    }

    /// Which side of the line a→b `c` lies on: 1 left, −1 right, 0 on it.
    private static func orientation(_ a: Point, _ b: Point, _ c: Point) -> Int {
        let cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        return cross > 0 ? 1 : cross < 0 ? -1 : 0
    }

    /// How many of `walls` stand between `a` and `b` (on the plane): every wall the straight path
    /// crosses or touches counts once, so a path through a corner meets both walls there and a
    /// path along a wall meets it; a wall `a` or `b` lies on (a beacon mounted on it, a receiver
    /// standing at it) does not count. The count is what the air multiplies the per-wall loss by.
    public static func count(_ walls: [Wall], between a: Point, and b: Point) -> Int {
        let path = Wall(start: a, end: b)
        return walls.reduce(0) { $0 + (path.intersects($1) && !$1.contains(a) && !$1.contains(b) ? 1 : 0) }
    }
}
