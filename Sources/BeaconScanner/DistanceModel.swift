// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import BeaconRadio

/// How a received signal strength becomes an estimated distance in metres, given the beacon's
/// measured power (its RSSI at 1 m). The models are described, with worked values, in
/// docs/RANGING.md and docs/AIR.md. Neither is more than an estimate: walls, bodies and antennas move RSSI by
/// 10 dB and more.
public enum DistanceModel: Hashable, Sendable, CustomStringConvertible {
    /// The curve fit AltBeacon's Android Beacon Library uses by default (fitted to a Nexus 4):
    /// with `ratio = rssi / measuredPower`, `ratio^10` below 1, else `0.89976 · ratio^7.7095 + 0.111`.
    case altBeacon
    /// The Android Beacon Library's `CurveFittedDistanceCalculator` with one phone's coefficients.
    case curveFit(CurveFitCoefficients)
    /// Log-distance path loss: `d = 10^((measuredPower − rssi) / (10 · n))`; n = 2 is free space,
    /// 2.5–4 is typical indoors.
    case pathLoss(exponent: Double)

    /// Log-distance path loss with the free-space exponent, 2.
    public static let freeSpace = DistanceModel.pathLoss(exponent: 2)

    /// The estimated distance in metres, or `nil` when it cannot be estimated: an RSSI of 0 (no
    /// signal, as CoreLocation reports it), a measured power of 0, or a non-positive exponent.
    public func distance(rssi: Double, measuredPower: Int8) -> Double? {
        guard rssi != 0, measuredPower != 0, rssi.isFinite else { return nil }
        let power = Double(measuredPower)
        switch self {
        case .altBeacon:
            return Self.curveFitDistance(rssi: rssi, power: power, .nexus4Original)
        case .curveFit(let c):
            return Self.curveFitDistance(rssi: rssi, power: power, c)
        case .pathLoss(let n):
            guard n > 0, n.isFinite else { return nil }
            return LogDistancePathLoss.distance(rssi: rssi, powerAt1m: power, exponent: n)
        }
    }

    /// The library's curve: `ratio^10` below 1, else `c1 · ratio^c2 + c3` (ratio = rssi / power).
    static func curveFitDistance(rssi: Double, power: Double, _ c: CurveFitCoefficients) -> Double {
        let ratio = rssi / power
        if ratio < 1 { return pow(ratio, 10) }
        return c.coefficient1 * pow(ratio, c.coefficient2) + c.coefficient3
    }

    public var description: String {
        switch self {
        case .altBeacon: "altbeacon"
        case .curveFit(let c): "curve fit (\(c.device))"
        case .pathLoss(let n): "pathloss (n = \(n))"
        }
    }
}
