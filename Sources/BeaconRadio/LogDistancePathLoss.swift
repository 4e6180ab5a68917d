// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCodec  // SplitMix64, the project's seeded generator

/// Log-distance path loss, the one formula every part of beacon ranges and simulates with:
///
///     rssi = P₁ − 10 · n · log₁₀(d),     d = 10^((P₁ − rssi) / (10 · n)),
///
/// P₁ the RSSI at 1 m (dBm), d metres, n the path-loss exponent (2 in free space, about 1.6–3.5
/// indoors: docs/AIR.md). In BeaconRadio, beside the codec rather than in it (the codec stays free
/// of the C library's maths), so the virtual air, the scanner's distance model and positioning
/// share it.
public enum LogDistancePathLoss {
    /// The RSSI at `distance` metres (no floor: callers clamp the distance).
    @inlinable
    public static func rssi(atDistance distance: Double, powerAt1m: Double, exponent: Double) -> Double {
        powerAt1m - loss(atDistance: distance, exponent: exponent)
    }

    /// The loss in dB from 1 m out to `distance` metres, 10 · n · log₁₀(d) (negative closer
    /// than 1 m; no floor: callers clamp the distance).
    @inlinable
    public static func loss(atDistance distance: Double, exponent: Double) -> Double {
        10 * exponent * log10(distance)
    }

    /// The distance in metres that gives `rssi`.
    @inlinable
    public static func distance(rssi: Double, powerAt1m: Double, exponent: Double) -> Double {
        pow(10, (powerAt1m - rssi) / (10 * exponent))
    }
}

extension SplitMix64 {
    /// A standard normal deviate (Box–Muller; one of the pair is discarded for simplicity).
    public mutating func nextGaussian() -> Double {
        // (0, 1]: log(0) would be −∞.
        let u1 = Double(next() >> 11 &+ 1) / Double(1 << 53)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A uniform deviate in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
