// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Advertising Parameters — Core Vol 4 Part E §7.8.5, opcode 0x2006, 15 parameter octets.
///
/// ```
/// Advertising_Interval_Min   2 octets  0x0020…0x4000 × 0.625 ms
/// Advertising_Interval_Max   2 octets  0x0020…0x4000 × 0.625 ms
/// Advertising_Type           1 octet   0x00 ADV_IND … 0x03 ADV_NONCONN_IND, 0x04 ADV_DIRECT_IND (low duty)
/// Own_Address_Type           1 octet   0x00 public, 0x01 random, 0x02/0x03 RPA
/// Peer_Address_Type          1 octet   0x00 public, 0x01 random (directed advertising only)
/// Peer_Address               6 octets
/// Advertising_Channel_Map    1 octet   bits 0–2: channels 37, 38, 39
/// Advertising_Filter_Policy  1 octet   0x00…0x03
/// ```
/// Returns: Status. Refused with Command Disallowed while legacy advertising is enabled.
@frozen
public struct LESetAdvertisingParameters: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2006)
    public static let name = "LE Set Advertising Parameters"

    /// Within ``AdvertisingInterval/legacyRange`` (2 octets).
    public var intervalMin: AdvertisingInterval
    /// Within ``AdvertisingInterval/legacyRange`` (2 octets).
    public var intervalMax: AdvertisingInterval
    public var advertisingType: LEAdvertisingType
    public var ownAddressType: LEOwnAddressType
    public var peerAddressType: LEAddressType
    public var peerAddress: BluetoothAddress
    public var channelMap: LEAdvertisingChannelMap
    public var filterPolicy: LEAdvertisingFilterPolicy

    @inlinable
    public init(
        intervalMin: AdvertisingInterval, intervalMax: AdvertisingInterval,
        advertisingType: LEAdvertisingType = .nonConnectableUndirected,
        ownAddressType: LEOwnAddressType = .public,
        peerAddressType: LEAddressType = .public, peerAddress: BluetoothAddress = BluetoothAddress(0),
        channelMap: LEAdvertisingChannelMap = .all, filterPolicy: LEAdvertisingFilterPolicy = .acceptAll
    ) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.advertisingType = advertisingType
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.channelMap = channelMap
        self.filterPolicy = filterPolicy
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        intervalMin = AdvertisingInterval(units: UInt32(try reader.readUInt16("Advertising_Interval_Min")))
        intervalMax = AdvertisingInterval(units: UInt32(try reader.readUInt16("Advertising_Interval_Max")))
        advertisingType = LEAdvertisingType(rawValue: try reader.readUInt8("Advertising_Type"))
        ownAddressType = LEOwnAddressType(rawValue: try reader.readUInt8("Own_Address_Type"))
        peerAddressType = LEAddressType(rawValue: try reader.readUInt8("Peer_Address_Type"))
        peerAddress = try reader.readAddress("Peer_Address")
        channelMap = LEAdvertisingChannelMap(rawValue: try reader.readUInt8("Advertising_Channel_Map"))
        filterPolicy = LEAdvertisingFilterPolicy(rawValue: try reader.readUInt8("Advertising_Filter_Policy"))
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        // validate(for:) keeps both within legacyRange, which fits the 2-octet field.
        writer.write(UInt16(truncatingIfNeeded: intervalMin.rawValue))
        writer.write(UInt16(truncatingIfNeeded: intervalMax.rawValue))
        writer.write(advertisingType.rawValue)
        writer.write(ownAddressType.rawValue)
        writer.write(peerAddressType.rawValue)
        writer.write(peerAddress)
        writer.write(channelMap.rawValue)
        writer.write(filterPolicy.rawValue)
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkRange("Advertising_Type", advertisingType.rawValue, 0...4, "0x00…0x04")
        try HCIValidation.checkRange("Own_Address_Type", ownAddressType.rawValue, 0...3, "0x00…0x03")
        try HCIValidation.checkRange("Peer_Address_Type", peerAddressType.rawValue, 0...1, "0x00 public or 0x01 random")
        try HCIValidation.checkRange("Advertising_Channel_Map", channelMap.rawValue, 1...7, "0x01…0x07 (at least one of channels 37, 38, 39)")
        try HCIValidation.checkRange("Advertising_Filter_Policy", filterPolicy.rawValue, 0...3, "0x00…0x03")
        // High duty cycle directed advertising ignores the intervals (§7.8.5).
        guard advertisingType != .connectableHighDutyCycleDirected else { return }
        try HCIValidation.checkInterval(min: intervalMin, max: intervalMax, allowed: AdvertisingInterval.legacyRange)
        if advertisingType == .scannableUndirected || advertisingType == .nonConnectableUndirected,
           let version = controller.hciVersion, version < .v5_0,
           intervalMin < AdvertisingInterval.pre5NonConnectableMinimum {
            throw .advertisingIntervalTooShortForController(
                value: intervalMin, minimum: AdvertisingInterval.pre5NonConnectableMinimum, hciVersion: version)
        }
    }
}
