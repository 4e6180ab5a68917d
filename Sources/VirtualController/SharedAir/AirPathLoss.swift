// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconCodec
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The RSSI a receiver on the shared virtual air measures: log-distance path loss in free space,
///
///     RSSI = P₁ − 10 · n · log₁₀(d),   n = 2,
///
/// where d is the slant distance in metres between the advertiser and the receiver, heights
/// included (at least 0.1 m: closer than that the far-field model means nothing) and P₁ the
/// power at 1 m the advertiser radiates: what `AirEmission` works out from the power its
/// frames claim (BeaconCodec's `AnyBeacon.powerAt1m`: an iBeacon's measured power, an AltBeacon's
/// reference RSSI, an Eddystone frame's TX power at 0 m less 41 dB), the TX power changes since
/// the claim and the profile's `calibration_error`; without it (a transmission that does not
/// carry it) the claim in the data, else (no beacon) the event's transmit power less the same
/// 41 dB (free-space loss over the first metre at 2.4 GHz). An advertiser with no position is
/// heard as if 1 m away. By itself there is
/// no noise: the same geometry always gives the same RSSI, so what a scan or a fix shows can be
/// checked; an `AirChannel` (BeaconRadio; `--air`) adds shadowing, fading, loss and collisions on top, and
/// may change the exponent. `beacon scan --model pathloss` and `beacon locate` (exponent 2)
/// invert exactly this model. The formula is BeaconRadio's `LogDistancePathLoss`.
public enum AirPathLoss {
    public static let exponent = AirChannel.clean.exponent
    /// Loss over the first metre at 2.4 GHz in free space (20·log₁₀(4π/λ), λ = 12.5 cm): the
    /// figure Eddystone's specification relates its 0 m power with.
    public static let firstMetreLoss = Double(EddystoneFormat.lossOverFirstMetre)
    public static let shortestDistance = 0.1

    /// The RSSI at 1 m for an advertising event's data and transmit power.
    public static func referencePower(data: [UInt8], txPower: Int8) -> Double {
        if let power = AnyBeacon.powerAt1m(advertisingData: data) { return Double(power) }
        return Double(txPower) - firstMetreLoss
    }

    /// The RSSI, rounded to whole dBm as controllers report it, within −127…20.
    public static func rssi(data: [UInt8], txPower: Int8, from advertiser: Point?, to receiver: Point) -> Int8 {
        clamp(meanRSSI(data: data, txPower: txPower, from: advertiser, to: receiver, exponent: exponent))
    }

    /// The RSSI before rounding, with path-loss exponent `n`; `radiated`: the power at 1 m
    /// (``AirTransmission/radiatedPowerAt1m``), else the data's.
    public static func meanRSSI(data: [UInt8], txPower: Int8, radiated: Double? = nil, from advertiser: Point?, to receiver: Point,
                                exponent n: Double) -> Double {
        let p1 = radiated ?? referencePower(data: data, txPower: txPower)
        guard let advertiser else { return p1 }
        let d = max(advertiser.distance(to: receiver), shortestDistance)
        return LogDistancePathLoss.rssi(atDistance: d, powerAt1m: p1, exponent: n)
    }

    /// Rounded to whole dBm within −127…20, as controllers report it.
    public static func clamp(_ value: Double) -> Int8 { Int8(min(max(value.rounded(), -127), 20)) }
}
