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

/// The length + 31 zero-padded octets layout both legacy data commands share.
@usableFromInline
enum LegacyDataField {
    @inlinable
    static func encode(_ data: AdvertisingPayload, into writer: inout HCIWriter) {
        writer.write(UInt8(data.count))
        withUnsafeBytes(of: data.padded) { writer.write(contentsOf: $0) }
    }

    @inlinable
    static func decode(_ reader: inout HCIReader, lengthField: StaticString, dataField: StaticString) throws(HCIDecodingError) -> AdvertisingPayload {
        let length = Int(try reader.readUInt8(lengthField))
        let all = try reader.readBytes(AdvertisingPayload.capacity, dataField)
        guard length <= AdvertisingPayload.capacity else {
            throw .invalidValue(field: String(describing: lengthField), value: UInt64(length), allowed: "0…31")
        }
        // The padding after the significant octets is ignored, as a controller does.
        guard let payload = AdvertisingPayload(all.prefix(length)) else {
            throw .invalidValue(field: String(describing: lengthField), value: UInt64(length), allowed: "0…31")
        }
        return payload
    }
}
