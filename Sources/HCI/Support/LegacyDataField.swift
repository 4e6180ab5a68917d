// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

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
