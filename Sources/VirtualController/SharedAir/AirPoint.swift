// SPDX-License-Identifier: GPL-2.0-or-later

/// A point on the shared virtual air, in metres (the frame of the profiles' `position:`).
/// `z` defaults to 0: most floor plans are 2-D.
public struct AirPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// `X,Y` or `X,Y,Z` in metres (finite numbers), as `--at` takes it.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0.filter { $0 != " " })) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0?.isFinite == true }) else { return nil }
        self.init(x: parts[0]!, y: parts[1]!, z: parts.count == 3 ? parts[2]! : 0)
    }

    public func distance(to other: AirPoint) -> Double {
        let (dx, dy, dz) = (x - other.x, y - other.y, z - other.z)
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    public var description: String { z == 0 ? "(\(x), \(y))" : "(\(x), \(y), \(z))" }
}
