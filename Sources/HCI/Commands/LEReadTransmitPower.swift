// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Read Transmit Power — Core Vol 4 Part E §7.8.74, opcode 0x204B.
///
/// Parameters: none. Returns:
/// ```
/// Status        1 octet
/// Min_TX_Power  1 octet  signed dBm, −127…20
/// Max_TX_Power  1 octet  signed dBm, −127…20
/// ```
@frozen
public struct LEReadTransmitPower: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x204B)
    public static let name = "LE Read Transmit Power"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        public var minimum: Int8
        public var maximum: Int8
        @inlinable public init(minimum: Int8, maximum: Int8) {
            self.minimum = minimum
            self.maximum = maximum
        }
        @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            minimum = try reader.readInt8("Min_TX_Power")
            maximum = try reader.readInt8("Max_TX_Power")
        }
        @inlinable public func encode(into writer: inout HCIWriter) {
            writer.write(minimum)
            writer.write(maximum)
        }
    }
}
