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
        func orientation(_ a: Point, _ b: Point, _ c: Point) -> Int {
            let cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            return cross > 0 ? 1 : cross < 0 ? -1 : 0
        }
        func onSegment(_ a: Point, _ b: Point, _ p: Point) -> Bool {
            min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
        }
        let o1 = orientation(start, end, other.start), o2 = orientation(start, end, other.end)
        let o3 = orientation(other.start, other.end, start), o4 = orientation(other.start, other.end, end)
        if o1 != o2 && o3 != o4 { return true }
        if o1 == 0 && onSegment(start, end, other.start) { return true }
        if o2 == 0 && onSegment(start, end, other.end) { return true }
        if o3 == 0 && onSegment(other.start, other.end, start) { return true }
        if o4 == 0 && onSegment(other.start, other.end, end) { return true }
        return false
    }

    /// How many of `walls` the straight path from `a` to `b` (on the plane) meets: every wall it
    /// crosses or touches counts once, so a path through a corner meets both walls there and a
    /// path along a wall meets it. The count is what the air multiplies the per-wall loss by.
    public static func count(_ walls: [Wall], between a: Point, and b: Point) -> Int {
        let path = Wall(start: a, end: b)
        return walls.reduce(0) { $0 + (path.intersects($1) ? 1 : 0) }
    }
}
