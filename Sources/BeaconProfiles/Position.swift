// SPDX-License-Identifier: GPL-2.0-or-later

/// Where a beacon is mounted, in metres, in whatever local frame the profile author chose
/// (the loader only carries it; indoor-positioning tools give it meaning). `z` is optional
/// because most floor plans are 2-D.
public struct Position: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double?

    public init(x: Double, y: Double, z: Double? = nil) {
        self.x = x
        self.y = y
        self.z = z
    }
}
