// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import Foundation

/// A receiver's route: straight segments between waypoints, walked at constant speed.
public struct WalkPath: Hashable, Sendable {
    public var waypoints: [Point] {
        didSet { length = Self.length(of: waypoints) }
    }
    /// Metres from the first waypoint to the last (kept with the waypoints: a walk asks for it
    /// at every advertisement).
    public private(set) var length: Double

    public init(waypoints: [Point]) {
        precondition(!waypoints.isEmpty, "a path needs a waypoint")
        self.waypoints = waypoints
        length = Self.length(of: waypoints)
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

    /// Why a text is not a path; names the waypoint at fault.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The one waypoint grammar (`locate --simulate`, `walk --path`): waypoints `x,y x,y …` in
    /// metres, separated by spaces, tabs or semicolons (`0,0 1,0.5`, `0,0;1,0.5`, `0,0; 1,0.5`),
    /// each within ``Point/coordinateRange``, or a built-in name (`square`, `cross`, `still`, see
    /// ``named``).
    public init(parsing text: String) throws(ParseError) {
        if let path = Self.named[text.lowercased()] {
            self = path
            return
        }
        var points: [Point] = []
        let waypoints = text.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\t" })
        for (index, waypoint) in waypoints.enumerated() {
            let parts = waypoint.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let point = Point(parsing: waypoint),
                  Point.coordinateRange.contains(point.x), Point.coordinateRange.contains(point.y) else {
                let limit = Int(Point.coordinateLimit)
                throw ParseError(description: "waypoint \(index + 1) '\(waypoint)' is not x,y in metres (such as 0.5,-1; coordinates from -\(limit) to \(limit))")
            }
            points.append(point)
        }
        guard !points.isEmpty else {
            throw ParseError(description: "no waypoint: give \"x,y x,y …\" in metres (such as \"-0.5,-0.5 0.5,-0.5 0.5,0.5\"), or square, cross or still")
        }
        self.init(waypoints: points)
    }

    static func length(of waypoints: [Point]) -> Double {
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
