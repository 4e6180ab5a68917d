// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import Yams

/// A `position:` as written: where the entry's first beacon is, and how far each next one is
/// from the previous (`step:`, for range entries laid out in a line).
package struct PositionPlan {
    package var start: Point
    var step: (x: Double, y: Double, z: Double) = (0, 0, 0)

    /// BeaconRadio's ``Point/coordinateRange``: ±1000 km.
    static let coordinateRange = Point.coordinateRange

    /// Whether every beacon of an entry of `count` stays within ``coordinateRange``; the first
    /// and last are the extremes of a line.
    func staysWithinLimits(count: Int) -> Bool {
        let last = position(at: count - 1)
        return [last.x, last.y, last.z].allSatisfy { Self.coordinateRange.contains($0) }
    }

    /// The position of the entry's `index`-th beacon (from 0), rounded to a nanometre so that
    /// 0.1 × 3 prints as 0.3.
    func position(at index: Int) -> Point {
        func at(_ base: Double, _ delta: Double) -> Double {
            ((base + Double(index) * delta) * 1e9).rounded() / 1e9
        }
        return Point(x: at(start.x, step.x), y: at(start.y, step.y), z: at(start.z, step.z))
    }
}

extension ProfileReader {
    /// Reads `position: {x: , y: , z: , step: {x: , y: , z: }}`; x and y are required, z and step
    /// optional, all in metres.
    package func positionPlan(_ field: Field) -> PositionPlan? {
        guard let positionMapping = mapping(field, path: "position", expected: "a mapping like `{x: 1.5, y: 0, z: 2.4}` (metres)")
        else { return nil }
        let keys = fields(of: positionMapping, at: field.value, allowed: ProfileKeys.position, path: "position")
        let coordinate = "a position needs x and y (metres); z is optional"
        // Every coordinate is read (and reported) before giving up, so all problems show at once.
        var isValid = true
        func read(_ key: String, in keys: [String: Field], path: String) -> Double? {
            guard let f = keys[key] else { return nil }
            let value = number(f, path: "\(path).\(key)", range: PositionPlan.coordinateRange, unit: "metres")
            if value == nil { isValid = false }
            return value
        }
        for required in ["x", "y"] where keys[required] == nil {
            missing("position.\(required)", in: field.value, coordinate)
            isValid = false
        }
        let x = read("x", in: keys, path: "position")
        let y = read("y", in: keys, path: "position")
        let z = read("z", in: keys, path: "position")

        var step: (x: Double, y: Double, z: Double) = (0, 0, 0)
        if let stepField = keys["step"] {
            let expected = "a mapping like `{x: 2.5, y: 0}` (metres from one beacon to the next)"
            if let stepMapping = mapping(stepField, path: "position.step", expected: expected) {
                let stepKeys = fields(of: stepMapping, at: stepField.value, allowed: ProfileKeys.step, path: "position.step")
                step.x = read("x", in: stepKeys, path: "position.step") ?? 0
                step.y = read("y", in: stepKeys, path: "position.step") ?? 0
                if let stepZ = stepKeys["z"], keys["z"] == nil {
                    sink.report(stepZ.value, field: "position.step.z", "needs a `position.z` to step from")
                    isValid = false
                } else {
                    step.z = read("z", in: stepKeys, path: "position.step") ?? 0
                }
            } else {
                isValid = false
            }
        }
        guard isValid, let x, let y else { return nil }
        return PositionPlan(start: Point(x: x, y: y, z: z ?? 0), step: step)
    }
}
