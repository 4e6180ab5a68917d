// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconRadio
import Foundation

/// Where the simulated walker is at any time: a path of waypoints walked at constant speed,
/// once (then standing at the last waypoint) or over and over (`loop`: back to the first
/// waypoint in a straight line, then again).
public struct WalkRoute: Hashable, Sendable {
    public var path: WalkPath
    /// Metres per second.
    public var speed: Double
    public var loops: Bool

    public init(path: WalkPath, speed: Double, loops: Bool) {
        precondition(speed > 0 && speed.isFinite, "the walking speed must be positive")
        // A loop closes itself: the walker goes back to the start rather than jumping there.
        var points = path.waypoints
        if loops, points.count > 1, points.first != points.last { points.append(points[0]) }
        self.path = WalkPath(waypoints: points)
        self.speed = speed
        self.loops = loops
    }

    /// How long one walk of the path takes, seconds (0 for a single point).
    public var lapDuration: Double { path.length / speed }

    /// Seconds until the walk ends; nil when it loops (until stopped).
    public var duration: Double? { loops ? nil : lapDuration }

    /// The walker's position `time` seconds after setting off.
    public func position(at time: Double) -> Point {
        let length = path.length
        guard length > 0 else { return path.waypoints[0] }
        var travelled = max(0, time) * speed
        if loops { travelled = travelled.truncatingRemainder(dividingBy: length) }
        return path.point(atDistance: min(travelled, length))
    }

    /// Why a `--path` text is not a path.
    public struct PathError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Waypoints `x,y x,y …` in metres, separated by spaces or semicolons (`0,0 1,0.5`,
    /// `0,0;1,0.5`), or a built-in name (`square`, `cross`, `still`, see ``WalkPath/named``).
    public static func parsePath(_ text: String) throws(PathError) -> WalkPath {
        if let named = WalkPath.named[text.lowercased()] { return named }
        var points: [Point] = []
        let pairs = text.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\t" })
        for (index, pair) in pairs.enumerated() {
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite,
                  abs(x) <= 1_000_000, abs(y) <= 1_000_000 else {
                throw PathError(description: "waypoint \(index + 1) '\(pair)' is not x,y in metres (such as 0.5,-1; coordinates from -1000000 to 1000000)")
            }
            points.append(Point(x: x, y: y))
        }
        guard !points.isEmpty else {
            throw PathError(description: "no waypoint: give \"x,y x,y …\" in metres (such as \"-0.5,-0.5 0.5,-0.5 0.5,0.5\"), or square, cross or still")
        }
        return WalkPath(waypoints: points)
    }
}
