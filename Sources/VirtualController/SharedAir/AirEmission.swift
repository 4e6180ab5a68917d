// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio

/// What one advertiser on the shared virtual air radiates, as opposed to what its frames claim.
///
/// A beacon's measured power (an iBeacon's, an AltBeacon's reference RSSI, an Eddystone frame's
/// power at 0 m less 41 dB) is a calibration: the RSSI at 1 m *at the TX power it was calibrated
/// at*. A real radio's RSSI follows the power it radiates, whatever the frame says. So the air
/// takes a beacon's claim as true at the TX power of the event that first carried it (and again
/// whenever the claim changes: a beacon reconfigured, a walk's step), and from then on the power
/// at 1 m follows the TX power: lowered 20 dB by a scenario's `tx_power` step, it is heard 20 dB
/// weaker while it still claims the old figure, and a phone ranging with the claim puts it ten
/// times farther, as with a real one. `calibration_error` (the profile's, dB) is added on top: a
/// beacon that claims −59 dBm at 1 m and radiates 6 dB less (`calibration_error: -6`).
///
/// Frames without a claim (Eddystone-TLM, a scan response) are heard at the power of the last
/// claim of the same address: one radio, one power. An address that never claimed one radiates
/// its TX power less the 41 dB of the first metre (``AirPathLoss/firstMetreLoss``).
struct AirEmission: Sendable {
    /// Where the advertiser is (``AirLink/place(address:at:calibrationError:)``).
    var position: Point?
    /// dB added to what the claim says (a miscalibrated beacon); 0 by default.
    var calibrationError: Double = 0
    /// The last claim heard from this address (dBm at 1 m) and the TX power of the event that
    /// carried it first.
    var claim: (power: Int8, txPower: Int8)?

    /// The power at 1 m of an event with `data` at `txPower`, updating the claim it carries.
    mutating func radiatedPowerAt1m(data: [UInt8], txPower: Int8) -> Double {
        if let claimed = AnyBeacon.powerAt1m(advertisingData: data), claimed != claim?.power {
            claim = (claimed, txPower)
        }
        let base = claim.map { Double($0.power) + Double(Int(txPower) - Int($0.txPower)) }
            ?? Double(txPower) - AirPathLoss.firstMetreLoss
        return base + calibrationError
    }
}
