// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Advertising Data — Core Vol 4 Part E §7.8.7, opcode 0x2008, 32 parameter octets.
///
/// ```
/// Advertising_Data_Length   1 octet    0x00…0x1F significant octets
/// Advertising_Data         31 octets   the significant octets, then zero padding
/// ```
/// Returns: Status. The data is opaque here: HCI neither knows nor checks iBeacon fields.
@frozen
public struct LESetAdvertisingData: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2008)
    public static let name = "LE Set Advertising Data"

    public var data: AdvertisingPayload

    @inlinable public init(_ data: AdvertisingPayload) { self.data = data }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        data = try LegacyDataField.decode(&reader, lengthField: "Advertising_Data_Length", dataField: "Advertising_Data")
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) { LegacyDataField.encode(data, into: &writer) }
}
