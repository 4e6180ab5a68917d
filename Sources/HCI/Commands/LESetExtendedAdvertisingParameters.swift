// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Extended Advertising Parameters (v1) — Core Vol 4 Part E §7.8.53, opcode 0x2036,
/// 25 parameter octets.
///
/// ```
/// Advertising_Handle                1 octet   0x00…0xEF
/// Advertising_Event_Properties      2 octets  bit 0 connectable … bit 4 legacy PDUs … bit 6 include TxPower
/// Primary_Advertising_Interval_Min  3 octets  0x000020…0xFFFFFF × 0.625 ms
/// Primary_Advertising_Interval_Max  3 octets  0x000020…0xFFFFFF × 0.625 ms
/// Primary_Advertising_Channel_Map   1 octet   bits 0–2: channels 37, 38, 39
/// Own_Address_Type                  1 octet
/// Peer_Address_Type                 1 octet
/// Peer_Address                      6 octets
/// Advertising_Filter_Policy         1 octet
/// Advertising_TX_Power              1 octet   signed dBm −127…20, 0x7F no preference
/// Primary_Advertising_PHY           1 octet   0x01 LE 1M, 0x03 LE Coded
/// Secondary_Advertising_Max_Skip    1 octet
/// Secondary_Advertising_PHY         1 octet   0x01 LE 1M, 0x02 LE 2M, 0x03 LE Coded
/// Advertising_SID                   1 octet   0x00…0x0F
/// Scan_Request_Notification_Enable  1 octet   0x00/0x01
/// ```
/// Returns: Status, Selected_TX_Power (signed dBm).
@frozen
public struct LESetExtendedAdvertisingParameters: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2036)
    public static let name = "LE Set Extended Advertising Parameters"

    public var handle: UInt8
    public var eventProperties: LEAdvertisingEventProperties
    /// Within ``AdvertisingInterval/extendedRange`` (3 octets).
    public var intervalMin: AdvertisingInterval
    /// Within ``AdvertisingInterval/extendedRange`` (3 octets).
    public var intervalMax: AdvertisingInterval
    public var channelMap: LEAdvertisingChannelMap
    public var ownAddressType: LEOwnAddressType
    public var peerAddressType: LEAddressType
    public var peerAddress: BluetoothAddress
    public var filterPolicy: LEAdvertisingFilterPolicy
    /// dBm; 0x7F (127) asks for no particular power.
    public var txPower: Int8
    public var primaryPHY: LEPhy
    public var secondaryMaxSkip: UInt8
    public var secondaryPHY: LEPhy
    public var sid: UInt8
    public var scanRequestNotifications: Bool

    @inlinable
    public init(
        handle: UInt8,
        eventProperties: LEAdvertisingEventProperties = .legacyNonConnectable,
        intervalMin: AdvertisingInterval, intervalMax: AdvertisingInterval,
        channelMap: LEAdvertisingChannelMap = .all,
        ownAddressType: LEOwnAddressType = .random,
        peerAddressType: LEAddressType = .public, peerAddress: BluetoothAddress = BluetoothAddress(0),
        filterPolicy: LEAdvertisingFilterPolicy = .acceptAll,
        txPower: Int8 = HCIValidation.txPowerNoPreference,
        primaryPHY: LEPhy = .le1M, secondaryMaxSkip: UInt8 = 0, secondaryPHY: LEPhy = .le1M,
        sid: UInt8 = 0, scanRequestNotifications: Bool = false
    ) {
        self.handle = handle
        self.eventProperties = eventProperties
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.channelMap = channelMap
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.filterPolicy = filterPolicy
        self.txPower = txPower
        self.primaryPHY = primaryPHY
        self.secondaryMaxSkip = secondaryMaxSkip
        self.secondaryPHY = secondaryPHY
        self.sid = sid
        self.scanRequestNotifications = scanRequestNotifications
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        handle = try reader.readUInt8("Advertising_Handle")
        eventProperties = LEAdvertisingEventProperties(rawValue: try reader.readUInt16("Advertising_Event_Properties"))
        intervalMin = AdvertisingInterval(units: try reader.readUInt24("Primary_Advertising_Interval_Min"))
        intervalMax = AdvertisingInterval(units: try reader.readUInt24("Primary_Advertising_Interval_Max"))
        channelMap = LEAdvertisingChannelMap(rawValue: try reader.readUInt8("Primary_Advertising_Channel_Map"))
        ownAddressType = LEOwnAddressType(rawValue: try reader.readUInt8("Own_Address_Type"))
        peerAddressType = LEAddressType(rawValue: try reader.readUInt8("Peer_Address_Type"))
        peerAddress = try reader.readAddress("Peer_Address")
        filterPolicy = LEAdvertisingFilterPolicy(rawValue: try reader.readUInt8("Advertising_Filter_Policy"))
        txPower = try reader.readInt8("Advertising_TX_Power")
        primaryPHY = LEPhy(rawValue: try reader.readUInt8("Primary_Advertising_PHY"))
        secondaryMaxSkip = try reader.readUInt8("Secondary_Advertising_Max_Skip")
        secondaryPHY = LEPhy(rawValue: try reader.readUInt8("Secondary_Advertising_PHY"))
        sid = try reader.readUInt8("Advertising_SID")
        scanRequestNotifications = try reader.readFlag("Scan_Request_Notification_Enable")
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(handle)
        writer.write(eventProperties.rawValue)
        writer.writeUInt24(intervalMin.rawValue)
        writer.writeUInt24(intervalMax.rawValue)
        writer.write(channelMap.rawValue)
        writer.write(ownAddressType.rawValue)
        writer.write(peerAddressType.rawValue)
        writer.write(peerAddress)
        writer.write(filterPolicy.rawValue)
        writer.write(txPower)
        writer.write(primaryPHY.rawValue)
        writer.write(secondaryMaxSkip)
        writer.write(secondaryPHY.rawValue)
        writer.write(sid)
        writer.write(UInt8(scanRequestNotifications ? 1 : 0))
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        try HCIValidation.checkHandle(handle)
        if eventProperties.contains(.useLegacyPDUs),
           // Table 7.2 lists five values; bits 5 and 6 (anonymous, include TxPower) are not among them.
           !LEAdvertisingEventProperties.allowedLegacyCombinations.contains(eventProperties) {
            throw .invalidLegacyEventProperties(eventProperties.rawValue)
        }
        try HCIValidation.checkRange("Advertising_Event_Properties", eventProperties.rawValue, 0...0x7F, "bits 0–6 only")
        // High duty cycle directed advertising ignores the intervals (§7.8.53).
        if !eventProperties.contains(.highDutyCycleDirected) {
            try HCIValidation.checkInterval(min: intervalMin, max: intervalMax, allowed: AdvertisingInterval.extendedRange)
        }
        try HCIValidation.checkRange("Primary_Advertising_Channel_Map", channelMap.rawValue, 1...7, "0x01…0x07 (at least one of channels 37, 38, 39)")
        try HCIValidation.checkRange("Own_Address_Type", ownAddressType.rawValue, 0...3, "0x00…0x03")
        try HCIValidation.checkRange("Peer_Address_Type", peerAddressType.rawValue, 0...1, "0x00 public or 0x01 random")
        try HCIValidation.checkRange("Advertising_Filter_Policy", filterPolicy.rawValue, 0...3, "0x00…0x03")
        try HCIValidation.checkTxPower(txPower)
        guard primaryPHY == .le1M || primaryPHY == .leCoded else {
            throw .valueOutOfRange(field: "Primary_Advertising_PHY", value: UInt64(primaryPHY.rawValue), allowed: "0x01 LE 1M or 0x03 LE Coded")
        }
        try HCIValidation.checkRange("Secondary_Advertising_PHY", secondaryPHY.rawValue, 1...3, "0x01 LE 1M, 0x02 LE 2M or 0x03 LE Coded")
        try HCIValidation.checkRange("Advertising_SID", sid, 0...0x0F, "0x00…0x0F")
    }
}

extension LESetExtendedAdvertisingParameters {
    /// Status is checked separately; this is the power the controller chose.
    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        /// dBm, signed.
        public var selectedTxPower: Int8
        @inlinable public init(selectedTxPower: Int8) { self.selectedTxPower = selectedTxPower }
        @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            selectedTxPower = try reader.readInt8("Selected_TX_Power")
        }
        @inlinable public func encode(into writer: inout HCIWriter) { writer.write(selectedTxPower) }
    }
}
