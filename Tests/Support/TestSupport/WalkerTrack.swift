// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// The walker's track from `beacon walk --json` (its `"walker"` objects), to compare the fixes of
/// `beacon locate --live --json` with: each fix against the walker's position at the fix's own
/// Unix time, so neither program's start-up time matters.
public struct WalkerTrack: Sendable {
    /// Unix time and position (metres) of each `"walker"` line, in order.
    public var positions: [(time: Double, x: Double, y: Double)]

    public init(positions: [(time: Double, x: Double, y: Double)]) { self.positions = positions }

    /// The track in `walkOutput`, the standard output of `beacon walk --json`.
    public init(walkOutput: String) {
        positions = walkOutput.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == "walker",
                  let t = (object["unix_time"] as? NSNumber)?.doubleValue, let x = (object["x"] as? NSNumber)?.doubleValue,
                  let y = (object["y"] as? NSNumber)?.doubleValue else { return nil }
            return (t, x, y)
        }
    }

    /// Where the walker was at Unix time `t`, interpolated between the positions.
    public func position(at t: Double) -> (x: Double, y: Double) {
        guard let after = positions.firstIndex(where: { $0.time >= t }) else { return (positions.last!.x, positions.last!.y) }
        guard after > 0 else { return (positions[0].x, positions[0].y) }
        let (a, b) = (positions[after - 1], positions[after])
        let f = b.time > a.time ? (t - a.time) / (b.time - a.time) : 0
        return (a.x + f * (b.x - a.x), a.y + f * (b.y - a.y))
    }

    /// The fixes of `locateOutput` (`beacon locate --live --json`) whose window of `window`
    /// seconds lies within the walk, each with its distance from the walker then, metres.
    public func errors(ofFixesIn locateOutput: String, window: Double = 1) -> [Double] {
        guard let start = positions.first?.time, let end = positions.last?.time else { return [] }
        return locateOutput.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let t = (object["unix_time"] as? NSNumber)?.doubleValue, t - window / 2 >= start, t + window / 2 <= end,
                  let x = (object["x"] as? NSNumber)?.doubleValue, let y = (object["y"] as? NSNumber)?.doubleValue else { return nil }
            let p = position(at: t)
            return hypot(x - p.x, y - p.y)
        }
    }
}
