// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import Yams
import BeaconRadio

extension ProfileReader {
    /// Reads a fleet's `air:`: a preset name (`air: office`) or a mapping of a preset and
    /// overrides (`air: {preset: office, sigma: 4, exponent: 2.5, fading: rayleigh, loss: 0.1,
    /// wall_db: 5, seed: 7}`); the channel a `-i virtual` receiver locating in this fleet hears through
    /// (BeaconRadio's `AirChannel`; docs/AIR.md).
    package func airChannel(_ field: Field) -> AirChannel? {
        let names = AirChannel.presets.map(\.name)
        let presetAllowed = "must be one of " + names.joined(separator: ", ")
        func preset(_ f: Field, path: String) -> AirChannel? {
            guard let text = scalar(f, path: path, allowed: presetAllowed) else { return nil }
            guard let found = AirChannel.presets.first(where: { $0.name == text }) else {
                sink.report(f.value, field: path, presetAllowed)
                return nil
            }
            return found
        }
        if field.value.scalarText != nil { return preset(field, path: "air") }
        guard let air = mapping(field, path: "air", expected: "a preset (\(names.joined(separator: ", "))) or a mapping such as `{preset: office, sigma: 4}`")
        else { return nil }
        let keys = fields(of: air, at: field.value, allowed: ProfileKeys.air, path: "air")
        var valid = true
        var channel = AirChannel.clean
        if let f = keys["preset"] { if let p = preset(f, path: "air.preset") { channel = p } else { valid = false } }
        var overridden = false
        func read(_ key: String, range: ClosedRange<Double>, unit: String?, _ apply: (Double) -> Void) {
            guard let f = keys[key] else { return }
            if let value = number(f, path: "air.\(key)", range: range, unit: unit) { apply(value); overridden = true } else { valid = false }
        }
        read("sigma", range: AirChannel.sigmaRange, unit: "dB") { channel.shadowingSigma = $0 }
        read("exponent", range: AirChannel.exponentRange, unit: nil) { channel.exponent = $0 }
        read("loss", range: AirChannel.lossRange, unit: nil) { channel.randomLoss = $0 }
        read("wall_db", range: AirChannel.wallLossRange, unit: "dB") { channel.wallLoss = $0 }
        if let f = keys["fading"] {
            let allowed = "must be none, rayleigh or rician:K with K from \(NumberText.string(AirChannel.kFactorRange.lowerBound)) to \(NumberText.string(AirChannel.kFactorRange.upperBound)) dB"
            if let text = scalar(f, path: "air.fading", allowed: allowed) {
                if let fading = AirChannel.Fading(parsing: text) { channel.fading = fading; overridden = true } else {
                    sink.report(f.value, field: "air.fading", allowed)
                    valid = false
                }
            } else { valid = false }
        }
        if let f = keys["seed"] {
            if let seed = integer(f, path: "air.seed", range: 0...Int.max) { channel.seed = UInt64(seed) } else { valid = false }
        }
        if overridden { channel.name += "+" }
        return valid ? channel : nil
    }
}
