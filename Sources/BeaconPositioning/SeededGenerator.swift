// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import BeaconRadio

/// A seeded generator (BeaconCodec's ``SplitMix64``), so a simulation with the same seed gives
/// the same numbers on every machine (the system generator cannot be seeded), plus the normal
/// deviates the RSSI noise needs.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    var base: SplitMix64

    public init(seed: UInt64) { base = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { base.next() }

    /// A standard normal deviate (BeaconRadio's, shared with the virtual air).
    public mutating func nextGaussian() -> Double { base.nextGaussian() }
}
