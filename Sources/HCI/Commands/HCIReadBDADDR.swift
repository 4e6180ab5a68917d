// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Read BD_ADDR — Core Vol 4 Part E §7.4.6, opcode 0x1009.
///
/// Parameters: none. Returns:
/// ```
/// Status   1 octet
/// BD_ADDR  6 octets  the controller's public address, least-significant byte first
/// ```
@frozen
public struct HCIReadBDADDR: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x1009)
    public static let name = "Read BD_ADDR"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        public var address: BluetoothAddress
        @inlinable public init(address: BluetoothAddress) { self.address = address }
        @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) { address = try reader.readAddress("BD_ADDR") }
        @inlinable public func encode(into writer: inout HCIWriter) { writer.write(address) }
    }
}
