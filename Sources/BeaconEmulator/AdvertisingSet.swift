// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import HCI

/// What one advertiser puts on air: its handle, address, parameters and data (as Bumble's
/// `AdvertisingSet` owns them). Two configurations that compare equal need no command between them.
public struct AdvertisingSetConfiguration: Hashable, Sendable {
    public var handle: UInt8
    public var address: BluetoothAddress
    /// Advertising interval (min = max).
    public var interval: AdvertisingInterval
    /// Requested radio output power, dBm; nil = no preference (0x7F).
    public var txPower: Int8?
    public var data: AdvertisingPayload
    /// The beacon it carries, for status lines.
    public var beaconName: String
    /// Advertising events the beacon gets in its turn of a rotation, when the controller counts
    /// them (Max_Extended_Advertising_Events, Core Vol 4 Part E §7.8.56) and stops the set after
    /// the last one; 0: no limit, the set advertises until the host changes it.
    public var eventsPerTurn: UInt8 = 0

    public init(handle: UInt8, beacon: BeaconProfile) {
        self.handle = handle
        self.address = beacon.address
        self.interval = AdvertisingInterval(milliseconds: beacon.intervalMilliseconds)
        self.txPower = beacon.txPower
        self.data = beacon.beacon.advertisingData(flags: beacon.flags)
        self.beaconName = beacon.name
    }

    /// Parameters that may change only while the advertiser is disabled.
    struct Parameters: Hashable {
        var interval: AdvertisingInterval
        var txPower: Int8?
    }

    var parameters: Parameters { Parameters(interval: interval, txPower: txPower) }

    // MARK: Commands (extended advertising)

    /// ADV_NONCONN_IND through an extended set: event properties 0x0010 (legacy PDUs, neither
    /// connectable nor scannable), own address type random, the set's interval and TX power.
    var extendedParameters: LESetExtendedAdvertisingParameters {
        LESetExtendedAdvertisingParameters(
            handle: handle, eventProperties: .legacyNonConnectable, intervalMin: interval, intervalMax: interval,
            ownAddressType: .random, txPower: txPower ?? HCIValidation.txPowerNoPreference)
    }

    var extendedAddress: LESetAdvertisingSetRandomAddress { LESetAdvertisingSetRandomAddress(handle: handle, address: address) }

    var extendedData: LESetExtendedAdvertisingData {
        LESetExtendedAdvertisingData(handle: handle, operation: .complete, avoidFragmentation: true, data: Array(data))
    }

    // MARK: Commands (legacy advertising)

    var legacyParameters: LESetAdvertisingParameters {
        LESetAdvertisingParameters(intervalMin: interval, intervalMax: interval, advertisingType: .nonConnectableUndirected, ownAddressType: .random)
    }

    var legacyAddress: LESetRandomAddress { LESetRandomAddress(address) }
    var legacyData: LESetAdvertisingData { LESetAdvertisingData(data) }
}
