// SPDX-License-Identifier: GPL-2.0-or-later

/// A box on the picture, in pixels (y grows downwards, as in SVG).
public struct LabelBox: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(centreX: Double, centreY: Double, width: Double, height: Double) {
        self.init(x: centreX - width / 2, y: centreY - height / 2, width: width, height: height)
    }

    /// Whether the two boxes share any area (touching edges do not count).
    public func intersects(_ other: LabelBox) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    func contains(_ other: LabelBox) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }

    /// The point of the box nearest to (`px`, `py`): where a leader line ends.
    func nearestPoint(toX px: Double, y py: Double) -> (x: Double, y: Double) {
        (min(max(px, x), x + width), min(max(py, y), y + height))
    }
}

/// Greedy label placement: each label, in order, takes the first free spot among rings of
/// candidates around its point (next to it first, then further out with a leader line), free
/// meaning inside the allowed area and overlapping no label placed before and no obstacle (the
/// markers). A label with no free spot goes to a column beside the area, where slots are
/// always free, also with a leader line. So no two labels ever overlap, whatever the density,
/// and the work is bounded: labels × candidates × (labels + obstacles).
public enum LabelPlacement {
    /// One placed label.
    public struct Placed: Hashable, Sendable {
        public var box: LabelBox
        /// Whether the label sits away from its point and needs a line to it.
        public var needsLeader: Bool
    }

    /// Rings of candidates tried around each point; the first ring touches the marker.
    static let rings = 14
    /// Pixels between rings.
    static let ringStep = 7.0
    /// Directions per ring: right, left, above, below first (the nearest reading positions).
    static let directions: [(Double, Double)] = {
        var result: [(Double, Double)] = [(1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1)]
        // And eight in between, on the unit square's edges.
        result += [(1, -0.5), (-1, -0.5), (1, 0.5), (-1, 0.5), (0.5, -1), (-0.5, -1), (0.5, 1), (-0.5, 1)]
        return result
    }()

    /// Places every label; each request is the label's box centred on its point (the marker).
    /// `overflowX` is where the spare column starts (right of `area`), filled from `area`'s top down.
    public static func place(_ requests: [LabelBox], in area: LabelBox, obstacles: [LabelBox], markerRadius: Double,
                             overflowX: Double) -> [Placed] {
        var placed: [Placed] = []
        var taken: [LabelBox] = []
        var overflowY = area.y
        for request in requests {
            var found: LabelBox? = nil
            var ringUsed = 0
            let (px, py) = (request.x + request.width / 2, request.y + request.height / 2)
            search: for ring in 0..<rings {
                let gap = markerRadius + 2 + Double(ring) * ringStep
                for (dx, dy) in directions {
                    // The box's near edge `gap` away from the point along the direction.
                    let cx = px + dx * (request.width / 2 + gap)
                    let cy = py + dy * (request.height / 2 + gap)
                    let box = LabelBox(centreX: cx, centreY: cy, width: request.width, height: request.height)
                    guard area.contains(box), !taken.contains(where: box.intersects), !obstacles.contains(where: box.intersects) else { continue }
                    found = box
                    ringUsed = ring
                    break search
                }
            }
            let box: LabelBox
            if let found {
                box = found
            } else {
                box = LabelBox(x: overflowX, y: overflowY, width: request.width, height: request.height)
                overflowY += request.height + 1
                ringUsed = rings
            }
            taken.append(box)
            // Only a label touching its marker is clearly its own; any further out gets a line.
            placed.append(Placed(box: box, needsLeader: ringUsed > 0))
        }
        return placed
    }
}
