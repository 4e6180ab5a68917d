// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One beacon as `encode` prints it: the identity plus what the radio needs (flags, interval,
/// address), whether it came from a profile file or from `--uuid/--major/--minor`.
struct BeaconTransmission {
    /// The profile's name for the beacon; `nil` for one given on the command line.
    var name: String?
    var beacon: IBeacon
    var flags: BeaconFlags
    /// The random static address to advertise from; `nil` to use the controller's public address.
    var address: BluetoothAddress?
    /// The advertising interval in 0.625 ms units, as HCI carries it.
    var intervalUnits: UInt16

    /// The interval in milliseconds (units × 0.625).
    var intervalMilliseconds: Double { Double(intervalUnits) * AdvertisingInterval.millisecondsPerUnit }

    /// The advertising data (30 bytes with flags, 27 without).
    var payload: AdvertisingPayload { beacon.advertisingData(flags: flags) }
}

/// The legacy advertising interval limits (Core Vol 4 Part E §7.8.5: 0x0020–0x4000 units of
/// 0.625 ms, i.e. 20 ms to 10.24 s).
enum AdvertisingInterval {
    static let millisecondsPerUnit = 0.625
    static let unitRange: ClosedRange<UInt32> = 0x0020...0x4000
    static let millisecondRange: ClosedRange<Double> = 20...10_240
    /// Apple's iBeacon guidance: advertise every 100 ms.
    static let defaultMilliseconds = 100.0

    /// The nearest whole number of units for `milliseconds`.
    static func units(milliseconds: Double) -> UInt32 {
        UInt32((milliseconds / millisecondsPerUnit).rounded())
    }
}
