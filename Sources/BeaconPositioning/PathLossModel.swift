// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio

/// Log-distance path loss, both ways: `d = 10^((P − rssi) / (10·n))` and
/// `rssi = P − 10·n·log10(d)`, with P the beacon's measured power (RSSI at 1 m) and n the path
/// loss exponent (2 in free space, 2.5–4 indoors).
///
/// The formula is BeaconRadio's `LogDistancePathLoss` (shared with the scanner's
/// `DistanceModel.pathLoss` and the virtual air); this is positioning's view of it.
public struct PathLossModel: Hashable, Sendable {
    public var exponent: Double

    public init(exponent: Double = 2) {
        precondition(exponent > 0 && exponent.isFinite, "the path loss exponent must be positive")
        self.exponent = exponent
    }

    /// Metres for an RSSI (dBm) and a measured power (dBm at 1 m).
    public func distance(rssi: Double, measuredPower: Double) -> Double {
        LogDistancePathLoss.distance(rssi: rssi, powerAt1m: measuredPower, exponent: exponent)
    }

    /// The RSSI the model predicts at `distance` metres (clamped to 1 cm: the log has no floor).
    public func rssi(distance: Double, measuredPower: Double) -> Double {
        LogDistancePathLoss.rssi(atDistance: max(distance, 0.01), powerAt1m: measuredPower, exponent: exponent)
    }
}
