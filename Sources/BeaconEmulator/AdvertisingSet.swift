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
    /// Scan response data (a local name); `nil`: not scannable (ADV_NONCONN_IND), otherwise
    /// scannable undirected (ADV_SCAN_IND), which phones' active scans ask for the name.
    public var scanResponse: AdvertisingPayload?
    /// The beacon it carries, for status lines.
    public var beaconName: BeaconName
    /// Advertising events the beacon gets in its turn of a rotation, when the controller counts
    /// them (Max_Extended_Advertising_Events, Core Vol 4 Part E §7.8.56) and stops the set after
    /// the last one; 0: no limit, the set advertises until the host changes it.
    public var eventsPerTurn: UInt8 = 0

    public init(handle: UInt8, beacon: BeaconProfile) {
        self.handle = handle
        self.address = beacon.address
        self.interval = AdvertisingInterval(milliseconds: beacon.intervalMilliseconds)
        self.txPower = beacon.txPower
        self.data = beacon.advertisingData
        self.scanResponse = beacon.scanResponse
        self.beaconName = beacon.beaconName
    }

    /// Parameters that may change only while the advertiser is disabled.
    struct Parameters: Hashable {
        var interval: AdvertisingInterval
        var txPower: Int8?
        /// Scannable or not is the advertising type: a parameter too.
        var scannable: Bool
    }

    var parameters: Parameters { Parameters(interval: interval, txPower: txPower, scannable: scanResponse != nil) }

    // MARK: Commands (extended advertising)

    /// ADV_NONCONN_IND through an extended set: event properties 0x0010 (legacy PDUs, neither
    /// connectable nor scannable), or ADV_SCAN_IND with a scan response (0x0012: scannable);
    /// own address type random, the set's interval and TX power.
    var extendedParameters: LESetExtendedAdvertisingParameters {
        LESetExtendedAdvertisingParameters(
            handle: handle, eventProperties: scanResponse == nil ? .legacyNonConnectable : .legacyScannable, intervalMin: interval, intervalMax: interval,
            ownAddressType: .random, txPower: txPower ?? HCIValidation.txPowerNoPreference)
    }

    var extendedAddress: LESetAdvertisingSetRandomAddress { LESetAdvertisingSetRandomAddress(handle: handle, address: address) }

    var extendedData: LESetExtendedAdvertisingData {
        LESetExtendedAdvertisingData(handle: handle, operation: .complete, avoidFragmentation: true, data: Array(data))
    }

    /// The scan response of a scannable set with legacy PDUs: whole, in one command.
    var extendedScanResponse: LESetExtendedScanResponseData? {
        scanResponse.map { LESetExtendedScanResponseData(handle: handle, operation: .complete, avoidFragmentation: true, data: Array($0)) }
    }

    // MARK: Commands (legacy advertising)

    var legacyParameters: LESetAdvertisingParameters {
        LESetAdvertisingParameters(intervalMin: interval, intervalMax: interval,
                                   advertisingType: scanResponse == nil ? .nonConnectableUndirected : .scannableUndirected, ownAddressType: .random)
    }

    /// LE Set Scan Response Data (§7.8.8) for the legacy advertiser, when scannable.
    var legacyScanResponse: LESetScanResponseData? { scanResponse.map { LESetScanResponseData($0) } }

    var legacyAddress: LESetRandomAddress { LESetRandomAddress(address) }
    var legacyData: LESetAdvertisingData { LESetAdvertisingData(data) }
}
