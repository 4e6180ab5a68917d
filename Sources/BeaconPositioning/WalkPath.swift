// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import Foundation

/// A receiver's route: straight segments between waypoints, walked at constant speed.
public struct WalkPath: Hashable, Sendable {
    public var waypoints: [Point]

    public init(waypoints: [Point]) {
        precondition(!waypoints.isEmpty, "a path needs a waypoint")
        self.waypoints = waypoints
    }

    /// Built-in paths for the 2 m room: `square` (a 1 m square around the centre, closed),
    /// `cross` (centre → each beacon's half-way point and back), `still` (standing at (0.3, 0.2)).
    public static let named: [String: WalkPath] = [
        "square": WalkPath(waypoints: [Point(x: -0.5, y: -0.5), Point(x: 0.5, y: -0.5), Point(x: 0.5, y: 0.5),
                                       Point(x: -0.5, y: 0.5), Point(x: -0.5, y: -0.5)]),
        "cross": WalkPath(waypoints: [Point(x: 0, y: 0), Point(x: -0.5, y: 0), Point(x: 0, y: 0), Point(x: 0, y: 0.5),
                                      Point(x: 0, y: 0), Point(x: 0.5, y: 0), Point(x: 0, y: 0), Point(x: 0, y: -0.5),
                                      Point(x: 0, y: 0)]),
        "still": WalkPath(waypoints: [Point(x: 0.3, y: 0.2)]),
    ]

    /// A built-in name, or waypoints `x,y;x,y;…` (metres).
    public init?(parsing text: String) {
        if let path = Self.named[text.lowercased()] {
            self = path
            return
        }
        var points: [Point] = []
        for pair in text.split(separator: ";", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: ",")
            guard parts.count == 2,
                  let x = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                  let y = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                  x.isFinite, y.isFinite else { return nil }
            points.append(Point(x: x, y: y))
        }
        guard !points.isEmpty else { return nil }
        self.init(waypoints: points)
    }

    /// Metres from the first waypoint to the last.
    public var length: Double {
        zip(waypoints, waypoints.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// Where a walker is after `distance` metres (held at the end once there).
    public func point(atDistance distance: Double) -> Point {
        var left = max(0, distance)
        for (a, b) in zip(waypoints, waypoints.dropFirst()) {
            let segment = a.distance(to: b)
            if left <= segment, segment > 0 {
                let f = left / segment
                return Point(x: a.x + f * (b.x - a.x), y: a.y + f * (b.y - a.y))
            }
            left -= segment
        }
        return waypoints[waypoints.count - 1]
    }
}
