// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Extended Scan Response Data — Core Vol 4 Part E §7.8.55, opcode 0x2038.
///
/// ```
/// Advertising_Handle         1 octet   0x00…0xEF
/// Operation                  1 octet   0x00 intermediate, 0x01 first, 0x02 last fragment, 0x03 complete
/// Fragment_Preference        1 octet   0x00 controller may fragment, 0x01 should not
/// Scan_Response_Data_Length  1 octet   0…251
/// Scan_Response_Data         Scan_Response_Data_Length octets
/// ```
/// Returns: Status. For a set with legacy PDUs the data must fit in 31 octets and come whole
/// (operation 0x03); it may be replaced while the set is enabled (unlike extended PDUs', §7.8.55).
@frozen
public struct LESetExtendedScanResponseData: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2038)
    public static let name = "LE Set Extended Scan Response Data"

    public var handle: UInt8
    public var operation: LESetExtendedAdvertisingData.Operation
    /// `true`: the controller should not fragment the data (Fragment_Preference 0x01).
    public var avoidFragmentation: Bool
    public var data: [UInt8]

    @inlinable
    public init(handle: UInt8, operation: LESetExtendedAdvertisingData.Operation = .complete, avoidFragmentation: Bool = true, data: [UInt8]) {
        self.handle = handle
        self.operation = operation
        self.avoidFragmentation = avoidFragmentation
        self.data = data
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        handle = try reader.readUInt8("Advertising_Handle")
        operation = .init(rawValue: try reader.readUInt8("Operation"))
        avoidFragmentation = try reader.readFlag("Fragment_Preference")
        let length = Int(try reader.readUInt8("Scan_Response_Data_Length"))
        data = Array(try reader.readBytes(length, "Scan_Response_Data"))
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        precondition(data.count <= 251, "LE Set Extended Scan Response Data carries at most 251 octets; validate() first")
        writer.write(handle)
        writer.write(operation.rawValue)
        writer.write(UInt8(avoidFragmentation ? 1 : 0))
        writer.write(UInt8(data.count))
        writer.write(contentsOf: data)
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        try HCIValidation.checkHandle(handle)
        // 0x04 (unchanged data) is not allowed for scan response data (§7.8.55).
        try HCIValidation.checkRange("Operation", operation.rawValue, 0...3, "0x00…0x03")
        try HCIValidation.checkDataLength(data.count, legacyPDUs: false)
    }

    /// Also checks the 31-octet limit and the single complete operation of a legacy-PDU set.
    public func validate(for controller: HCIControllerInfo, legacyPDUs: Bool) throws(HCIValidationError) {
        try validate(for: controller)
        if legacyPDUs {
            try HCIValidation.checkDataLength(data.count, legacyPDUs: true)
            guard operation == .complete else {
                throw .valueOutOfRange(field: "Operation", value: UInt64(operation.rawValue), allowed: "0x03 (complete) with legacy PDUs")
            }
        }
    }
}
