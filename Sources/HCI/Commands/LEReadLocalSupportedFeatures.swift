// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Read Local Supported Features — Core Vol 4 Part E §7.8.3, opcode 0x2003.
///
/// Parameters: none. Returns:
/// ```
/// Status       1 octet
/// LE_Features  8 octets  bit mask of Core Vol 6 Part B §4.6 (bit 12: LE Extended Advertising)
/// ```
@frozen
public struct LEReadLocalSupportedFeatures: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2003)
    public static let name = "LE Read Local Supported Features"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        public var features: LEFeatures
        @inlinable public init(features: LEFeatures) { self.features = features }
        @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            features = LEFeatures(rawValue: try reader.readUInt64("LE_Features"))
        }
        @inlinable public func encode(into writer: inout HCIWriter) { writer.write(features.rawValue) }
    }
}
