// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconPositioning
import BeaconScanner

extension PhoneProfile: ExpressibleByArgument {}

/// `--as raw|ios|android` and `--android-device`: which phone `scan` and `locate --live` range
/// like (BeaconScanner's ``PhoneScanning`` owns what each means).
struct PhoneOptions: ParsableArguments {
    @Option(name: .customLong("as"), help: ArgumentHelp(
        "Range like this phone: raw (every report, 1 s means: the default), ios (CoreLocation) or android (Android Beacon Library). docs/AIR.md.",
        valueName: "phone"))
    var phone: PhoneProfile = .raw

    @Option(name: .customLong("android-device"), help: ArgumentHelp(
        "With --as android: whose distance curve: \(CurveFitCoefficients.named.map(\.name).joined(separator: ", ")) (default nexus5).",
        valueName: "device"))
    var androidDevice: String?

    func validate() throws {
        guard let androidDevice else { return }
        if phone != .android { throw ValidationError("--android-device goes with --as android") }
        if curve(named: androidDevice) == nil {
            throw ValidationError("--android-device must be one of \(CurveFitCoefficients.named.map(\.name).joined(separator: ", ")) (got \(androidDevice))")
        }
    }

    private func curve(named name: String) -> CurveFitCoefficients? {
        CurveFitCoefficients.named.first { $0.name == name.lowercased() }?.coefficients
    }

    /// The profile's settings; `model` applies to raw and ios, `exitAfter` (nil: the profile's) to all.
    func scanning(model: DistanceModel = .altBeacon, exitAfter: Duration? = nil) -> PhoneScanning {
        PhoneScanning(phone, model: model, androidCurve: androidDevice.flatMap(curve(named:)) ?? .nexus5, exitAfter: exitAfter)
    }
}

extension PositioningMethod: ExpressibleByArgument {}
