// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Scan Response Data — Core Vol 4 Part E §7.8.8, opcode 0x2009, 32 parameter octets.
///
/// ```
/// Scan_Response_Data_Length   1 octet    0x00…0x1F significant octets
/// Scan_Response_Data         31 octets   the significant octets, then zero padding
/// ```
/// Returns: Status.
@frozen
public struct LESetScanResponseData: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2009)
    public static let name = "LE Set Scan Response Data"

    public var data: AdvertisingPayload

    @inlinable public init(_ data: AdvertisingPayload) { self.data = data }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        data = try LegacyDataField.decode(&reader, lengthField: "Scan_Response_Data_Length", dataField: "Scan_Response_Data")
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) { LegacyDataField.encode(data, into: &writer) }
}
