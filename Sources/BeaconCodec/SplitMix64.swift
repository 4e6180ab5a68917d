// SPDX-License-Identifier: GPL-2.0-or-later

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast, seedable generator, so that what must
/// look random (the virtual controller's advDelay, simulated RSSI noise, test chunkings) repeats
/// exactly for a given seed on every machine. Nothing here is security-relevant.
@frozen
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @inlinable public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
