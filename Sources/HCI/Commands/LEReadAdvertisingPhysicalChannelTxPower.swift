// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Read Advertising Physical Channel Tx Power — Core Vol 4 Part E §7.8.6, opcode 0x2007.
///
/// Parameters: none. Returns:
/// ```
/// Status          1 octet
/// TX_Power_Level  1 octet  signed dBm, −127…20
/// ```
@frozen
public struct LEReadAdvertisingPhysicalChannelTxPower: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2007)
    public static let name = "LE Read Advertising Physical Channel Tx Power"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        /// dBm.
        public var txPowerLevel: Int8
        @inlinable public init(txPowerLevel: Int8) { self.txPowerLevel = txPowerLevel }
        @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            txPowerLevel = try reader.readInt8("TX_Power_Level")
        }
        @inlinable public func encode(into writer: inout HCIWriter) { writer.write(txPowerLevel) }
    }
}
