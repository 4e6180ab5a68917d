// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// A point on the floor plan, in metres.
public struct PlanePoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public func distance(to other: PlanePoint) -> Double { hypot(x - other.x, y - other.y) }

    public var description: String { String(format: "(%.2f, %.2f)", x, y) }
}
