// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// SplitMix64: a small, fast, seedable generator, so a simulation with the same seed gives the
/// same numbers on every machine (the system generator cannot be seeded).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal deviate (Box–Muller; one of the pair is discarded for simplicity).
    public mutating func nextGaussian() -> Double {
        // (0, 1]: log(0) would be −∞.
        let u1 = Double(next() >> 11 &+ 1) / Double(1 << 53)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
