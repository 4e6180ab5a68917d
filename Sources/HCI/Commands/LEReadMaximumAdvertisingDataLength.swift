// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Read Maximum Advertising Data Length — Core Vol 4 Part E §7.8.57, opcode 0x203A.
///
/// Parameters: none. Returns:
/// ```
/// Status                       1 octet
/// Max_Advertising_Data_Length  2 octets  0x001F…0x0672 bytes per advertising set
/// ```
@frozen
public struct LEReadMaximumAdvertisingDataLength: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x203A)
    public static let name = "LE Read Maximum Advertising Data Length"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        public var maximumLength: UInt16
        @inlinable public init(maximumLength: UInt16) { self.maximumLength = maximumLength }
        @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            maximumLength = try reader.readUInt16("Max_Advertising_Data_Length")
        }
        @inlinable public func encode(into writer: inout HCIWriter) { writer.write(maximumLength) }
    }
}
