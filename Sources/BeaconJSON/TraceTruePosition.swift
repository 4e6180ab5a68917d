// SPDX-License-Identifier: GPL-2.0-or-later

/// A trace line that says where the receiver really was:
/// `{"event":"true_position","time":T,"x":X,"y":Y}` (seconds on the samples' clock; metres on
/// the fleet's plan). A trace recorded where the position is known (a test rig, a staged
/// experiment) carries it, and `locate --trace --map` draws the true position and each fix's
/// error; every other reader of a trace skips it as it skips any event that is not a report.
public struct TraceTruePosition: Sendable, Equatable {
    /// The "event" of such a line.
    public static let event = "true_position"

    public var time: Double
    public var x: Double
    public var y: Double

    public init(time: Double, x: Double, y: Double) {
        self.time = time
        self.x = x
        self.y = y
    }

    /// Why a `true_position` line is not one.
    public struct LineError: Error, Equatable, CustomStringConvertible {
        public var description: String { "a true_position line needs time, x and y (finite numbers; x and y in metres)" }
    }

    /// The true position of one line; nil for a line of another event (or none), or not an object.
    public init?(line: some StringProtocol) throws(LineError) {
        guard let members = (try? JSONValue(parsing: line))?.members else { return nil }
        let object = JSONObjectView(members)
        guard object.string("event") == Self.event else { return nil }
        guard let time = object.double("time"), let x = object.double("x"), let y = object.double("y"),
              time.isFinite, x.isFinite, y.isFinite else { throw LineError() }
        self.init(time: time, x: x, y: y)
    }
}
