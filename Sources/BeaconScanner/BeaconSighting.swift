// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// One beacon advertisement heard by the scanner (any format the codec knows): what it said and
/// how loud it was.
public struct BeaconSighting: Hashable, Sendable {
    public var beacon: AnyBeacon
    /// Received signal strength in dBm; `nil` when the controller reported 127 (not available).
    public var rssi: Int8?
    public var address: BluetoothAddress
    public var addressType: LEAddressType
    /// Whether it came in an LE Extended Advertising Report (extended scanning), not a legacy one.
    public var extendedReport: Bool
    /// When the report arrived (the scanner's clock).
    public var time: ContinuousClock.Instant

    public init(beacon: AnyBeacon, rssi: Int8?, address: BluetoothAddress, addressType: LEAddressType,
                extendedReport: Bool, time: ContinuousClock.Instant) {
        self.beacon = beacon
        self.rssi = rssi
        self.address = address
        self.addressType = addressType
        self.extendedReport = extendedReport
        self.time = time
    }

    /// An iBeacon's sighting.
    public init(beacon: IBeacon, rssi: Int8?, address: BluetoothAddress, addressType: LEAddressType,
                extendedReport: Bool, time: ContinuousClock.Instant) {
        self.init(beacon: .iBeacon(beacon), rssi: rssi, address: address, addressType: addressType, extendedReport: extendedReport, time: time)
    }

    /// Which beacon it is; `nil` for an Eddystone TLM frame, which carries no identity.
    public var identity: BeaconKey? { beacon.key }
}
