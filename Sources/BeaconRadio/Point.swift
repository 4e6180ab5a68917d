// SPDX-License-Identifier: GPL-2.0-or-later

/// A point in metres, in whatever local frame the profile author chose: where a beacon is mounted
/// (a profile's `position:`), where the receiver stands on the shared virtual air (`--at`), a
/// waypoint of a walk, a position fix. `z` defaults to 0 because most floor plans are 2-D; a
/// profile written back leaves a 0 `z` out. The one point type of beacon: profiles, the virtual
/// air, positioning and walking all use it.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    /// The largest coordinate, in metres, of any beacon or waypoint (1000 km). Far beyond a
    /// building, and small enough that positioning's squares and sums stay finite and exact to the
    /// nanometre (1e6 m × 1e9 < 2^53): a value such as 1e306 would validate, then print as `inf`.
    public static let coordinateLimit = 1_000_000.0
    public static let coordinateRange = -coordinateLimit...coordinateLimit

    public init(x: Double, y: Double, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// `X,Y` or `X,Y,Z` in metres (finite numbers; spaces ignored), as `--at` takes it.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0.filter { $0 != " " })) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0?.isFinite == true }) else { return nil }
        self.init(x: parts[0]!, y: parts[1]!, z: parts.count == 3 ? parts[2]! : 0)
    }

    /// The straight-line distance in metres (3-D; two points with z = 0 give the plane distance).
    public func distance(to other: Point) -> Double {
        let (dx, dy, dz) = (x - other.x, y - other.y, z - other.z)
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// This point on the floor plan: `z` dropped, for 2-D positioning and walking.
    public var onPlane: Point { Point(x: x, y: y) }

    /// `(x, y)`, or `(x, y, z)` when z is not 0.
    public var description: String { z == 0 ? "(\(x), \(y))" : "(\(x), \(y), \(z))" }
}
