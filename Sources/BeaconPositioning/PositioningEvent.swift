// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio

/// What a run that positions a receiver reports as it goes, for whatever shows it (the live
/// page): each fix as it is made, and the receiver's true position where the run knows it (a
/// walk's walker, `locate --live --at`).
public enum PositioningEvent: Hashable, Sendable {
    /// A fix: the estimate and the ranges it came from.
    case fix(PositionFix)
    /// The receiver really is at `position` at `time` seconds (the fixes' clock).
    case truePosition(Point, time: Double)
}

/// Where the receiver really was over a run, as reported (a walk's walker, a trace's
/// `true_position` lines): the position at a time is the last one reported at or before it (the
/// first one before any). What draws a run's errors asks it for each fix's time.
public struct TruePositions: Sendable {
    /// In time order.
    public private(set) var reports: [(time: Double, position: Point)]

    public init(_ reports: [(time: Double, position: Point)] = []) {
        self.reports = reports.sorted { $0.time < $1.time }
    }

    public var isEmpty: Bool { reports.isEmpty }

    /// The position at `time`; nil when none was reported.
    public func at(_ time: Double) -> Point? {
        guard let first = reports.first else { return nil }
        return reports.last { $0.time <= time + 1e-9 }?.position ?? first.position
    }

    /// ``at(_:)`` as a function, or nil when none was reported (as a map's `truth:` takes it).
    public var function: ((Double) -> Point)? {
        guard !isEmpty else { return nil }
        let reports = self
        return { reports.at($0)! }
    }
}
