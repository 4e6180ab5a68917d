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
}
