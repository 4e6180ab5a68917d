// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio

/// A named room or zone of the floor plan (`areas:` in a profile or scenario file): a closed wall
/// polygon in the same metres as the beacons' `position:`. Several areas make a floor plan.
/// Maps draw the walls; the virtual air takes `wall_db` off per wall in the way (BeaconRadio's
/// `AirChannel.wallLoss`, 0 unless a file or `--air-wall-db` gives it).
public struct Area: Hashable, Sendable {
    /// The most corners one area may have: enough for any floor plan drawn by hand, and small
    /// enough that the self-intersection check (every pair of walls) stays well under a second.
    public static let maximumCorners = 1_000

    public var name: String
    /// The polygon's corners in order; the last one joins back to the first.
    public var corners: [Point]

    public init(name: String, corners: [Point]) {
        self.name = name
        self.corners = corners
    }

    /// The polygon's sides, the last from the last corner back to the first.
    public var walls: [Wall] {
        corners.indices.map { Wall(start: corners[$0], end: corners[($0 + 1) % corners.count]) }
    }
}

extension Area {
    /// The first two walls (by index) that cross, other than neighbours meeting at their shared
    /// corner; `nil` for a simple polygon.
    public var firstCrossing: (Int, Int)? {
        let walls = self.walls
        let n = walls.count
        for i in 0..<n {
            for j in (i + 1)..<n {
                let neighbours = j == i + 1 || (i == 0 && j == n - 1)
                if neighbours {
                    // Neighbours always touch at their shared corner; they cross only when one
                    // doubles back over the other.
                    if Self.foldsBack(walls[i], walls[j]) { return (i, j) }
                    continue
                }
                if walls[i].intersects(walls[j]) { return (i, j) }
            }
        }
        return nil
    }

    /// Whether two neighbouring walls overlap along a line (one doubles back over the other).
    static func foldsBack(_ a: Wall, _ b: Wall) -> Bool {
        let shared = a.end == b.start ? a.end : a.start
        let p = a.end == b.start ? a.start : a.end
        let q = b.start == shared ? b.end : b.start
        let cross = (p.x - shared.x) * (q.y - shared.y) - (p.y - shared.y) * (q.x - shared.x)
        let dot = (p.x - shared.x) * (q.x - shared.x) + (p.y - shared.y) * (q.y - shared.y)
        return cross == 0 && dot > 0
    }
}

extension BeaconFleet {
    /// Every area's walls, in file order: what a map draws and what blocks the air.
    public var walls: [Wall] { areas.flatMap(\.walls) }
}
