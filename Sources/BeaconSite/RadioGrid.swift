// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio

/// A site's radios in square cells of the floor plan, each as wide as the placement's maximum
/// distance: every radio within that distance of a beacon is in the beacon's cell or one of the
/// eight around it (the distance is 3-D, never shorter than the one on the floor), so finding a
/// beacon's radios in reach costs the radios of nine cells, not all of them.
struct RadioGrid {
    struct Cell: Hashable {
        var x: Int
        var y: Int
    }

    let cell: Double
    private let positions: [Point]
    private let cells: [Cell: [Int]]

    init(_ radios: [SiteRadio], cell: Double) {
        self.cell = cell
        positions = radios.map(\.position)
        var cells: [Cell: [Int]] = [:]
        for (index, p) in positions.enumerated() { cells[Self.cell(of: p, size: cell), default: []].append(index) }
        self.cells = cells
    }

    private static func cell(of p: Point, size: Double) -> Cell {
        // Coordinates are at most 10^6 m (Point.coordinateLimit) and a cell at least 0.1 m wide.
        Cell(x: Int((p.x / size).rounded(.down)), y: Int((p.y / size).rounded(.down)))
    }

    /// The radios (indexes into the radios given) within `distance` of `position`, nearest first
    /// (at equal distance, in the radios' order); none for a beacon without a position.
    func inReach(of position: Point?, within distance: Double) -> [(radio: Int, distance: Double)] {
        guard let p = position else { return [] }
        let c = Self.cell(of: p, size: cell)
        var found: [(radio: Int, distance: Double)] = []
        for dx in -1...1 {
            for dy in -1...1 {
                for r in cells[Cell(x: c.x + dx, y: c.y + dy)] ?? [] {
                    let d = p.distance(to: positions[r])
                    if d <= distance { found.append((r, d)) }
                }
            }
        }
        return found.sorted { ($0.distance, $0.radio) < ($1.distance, $1.radio) }
    }

    /// The nearest radio of all (for saying how far it is when none is in reach): a look at every
    /// radio, done only for a beacon that has none in reach. A beacon without a position is
    /// infinitely far from the first radio.
    func nearest(to position: Point?) -> (radio: Int, distance: Double)? {
        guard !positions.isEmpty else { return nil }
        guard let p = position else { return (0, .infinity) }
        var best = (radio: 0, distance: Double.infinity)
        for (r, q) in positions.enumerated() {
            let d = p.distance(to: q)
            if d < best.distance { best = (r, d) }
        }
        return best
    }
}
