// SPDX-License-Identifier: GPL-2.0-or-later

/// The three coefficients of the Android Beacon Library's `CurveFittedDistanceCalculator`:
/// with `ratio = rssi / txPower` (txPower: the beacon's power at 1 m),
///
///     distance = ratio^10                                   when ratio < 1,
///     distance = coefficient1 · ratio^coefficient2 + coefficient3   otherwise,
///
/// and no distance for an RSSI of 0 (the library returns −1). Each phone model has its own fit;
/// the named ones are the library's `model-distance-calculations.json`
/// (AltBeacon/android-beacon-library, lib/src/main/resources), whose default is the Nexus 5.
public struct CurveFitCoefficients: Hashable, Sendable, CustomStringConvertible {
    public var coefficient1: Double
    public var coefficient2: Double
    public var coefficient3: Double
    /// The phone the fit was made with, for messages.
    public var device: String

    public init(_ coefficient1: Double, _ coefficient2: Double, _ coefficient3: Double, device: String) {
        self.coefficient1 = coefficient1
        self.coefficient2 = coefficient2
        self.coefficient3 = coefficient3
        self.device = device
    }

    /// The library's default (`"default": true` in its JSON).
    public static let nexus5 = CurveFitCoefficients(0.42093, 6.9476, 0.54992, device: "Nexus 5")
    /// The first fit the library shipped (its 2014 `AltBeacon` default, a Nexus 4): what
    /// ``DistanceModel/altBeacon`` has always used.
    public static let nexus4Original = CurveFitCoefficients(0.89976, 7.7095, 0.111, device: "Nexus 4 (2014 fit)")
    public static let motoXPro = CurveFitCoefficients(0.9401940951, 6.170094565, 0.0, device: "Moto X Pro")
    public static let galaxyS20 = CurveFitCoefficients(4.882103522, 6.98084248, -0.6644164184, device: "Galaxy S20")
    public static let p30Pro = CurveFitCoefficients(4.290357018, 7.179975601, -0.4184600771, device: "P30 Pro")
    public static let galaxyA71 = CurveFitCoefficients(3.372874428, 7.319485054, -0.3874483599, device: "Galaxy A71")
    public static let p30Lite = CurveFitCoefficients(5.166854488, 6.336069721, 0.3871575945, device: "P30 Lite")
    public static let galaxyA20e = CurveFitCoefficients(8.58727106, 7.260375764, -1.192299808, device: "Galaxy A20e")
    public static let galaxyA5 = CurveFitCoefficients(1.722850362, 8.480887013, -0.9430878697, device: "Galaxy A5")
    // The JSON's Motorola XT1092 fit (0.186·ratio^8.24 − 0.453) is left out: it gives a negative
    // distance up to ratio 1.1 (−0.27 m at the beacon's own power at 1 m).

    /// The devices `--android-device` names, by the name it takes.
    public static let named: [(name: String, coefficients: CurveFitCoefficients)] = [
        ("nexus5", .nexus5), ("motoxpro", .motoXPro), ("galaxys20", .galaxyS20), ("p30pro", .p30Pro), ("galaxya71", .galaxyA71),
        ("p30lite", .p30Lite), ("galaxya20e", .galaxyA20e), ("galaxya5", .galaxyA5),
    ]

    public var description: String { "\(device): \(coefficient1)·ratio^\(coefficient2) + \(coefficient3)" }
}
