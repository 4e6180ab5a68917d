// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Read Number of Supported Advertising Sets — Core Vol 4 Part E §7.8.58, opcode 0x203B.
///
/// Parameters: none. Returns:
/// ```
/// Status                          1 octet
/// Num_Supported_Advertising_Sets  1 octet  0x01…0xF0 (a snapshot: other users share them)
/// ```
@frozen
public struct LEReadNumberOfSupportedAdvertisingSets: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x203B)
    public static let name = "LE Read Number of Supported Advertising Sets"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        public var numberOfSets: UInt8
        @inlinable public init(numberOfSets: UInt8) { self.numberOfSets = numberOfSets }
        @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            numberOfSets = try reader.readUInt8("Num_Supported_Advertising_Sets")
        }
        @inlinable public func encode(into writer: inout HCIWriter) { writer.write(numberOfSets) }
    }
}
