// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation

/// A seeded generator (BeaconCodec's ``SplitMix64``), so a simulation with the same seed gives
/// the same numbers on every machine (the system generator cannot be seeded), plus the normal
/// deviates the RSSI noise needs.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    var base: SplitMix64

    public init(seed: UInt64) { base = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { base.next() }

    /// A standard normal deviate (Box–Muller; one of the pair is discarded for simplicity).
    public mutating func nextGaussian() -> Double {
        // (0, 1]: log(0) would be −∞.
        let u1 = Double(next() >> 11 &+ 1) / Double(1 << 53)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
