// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Extended Advertising Data — Core Vol 4 Part E §7.8.54, opcode 0x2037.
///
/// ```
/// Advertising_Handle       1 octet   0x00…0xEF
/// Operation                1 octet   0x00 intermediate, 0x01 first, 0x02 last fragment, 0x03 complete, 0x04 unchanged
/// Fragment_Preference      1 octet   0x00 controller may fragment, 0x01 should not
/// Advertising_Data_Length  1 octet   0…251
/// Advertising_Data         Advertising_Data_Length octets
/// ```
/// Returns: Status. With legacy PDUs the data must fit in 31 octets.
@frozen
public struct LESetExtendedAdvertisingData: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2037)
    public static let name = "LE Set Extended Advertising Data"

    /// Which part of the set's data this command carries.
    @frozen
    public struct Operation: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt8
        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let intermediateFragment = Operation(rawValue: 0x00)
        public static let firstFragment = Operation(rawValue: 0x01)
        public static let lastFragment = Operation(rawValue: 0x02)
        public static let complete = Operation(rawValue: 0x03)
        /// Keep the data, only change its Advertising DID.
        public static let unchangedData = Operation(rawValue: 0x04)
    }

    public var handle: UInt8
    public var operation: Operation
    /// `true`: the controller should not fragment the data over several PDUs (Fragment_Preference 0x01).
    public var avoidFragmentation: Bool
    public var data: [UInt8]

    @inlinable
    public init(handle: UInt8, operation: Operation = .complete, avoidFragmentation: Bool = true, data: [UInt8]) {
        self.handle = handle
        self.operation = operation
        self.avoidFragmentation = avoidFragmentation
        self.data = data
    }

    /// The whole legacy-sized payload in one command (what an iBeacon set sends).
    @inlinable
    public init(handle: UInt8, payload: AdvertisingPayload) {
        self.init(handle: handle, operation: .complete, avoidFragmentation: true, data: Array(payload))
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        handle = try reader.readUInt8("Advertising_Handle")
        operation = Operation(rawValue: try reader.readUInt8("Operation"))
        avoidFragmentation = try reader.readFlag("Fragment_Preference")
        let length = Int(try reader.readUInt8("Advertising_Data_Length"))
        data = Array(try reader.readBytes(length, "Advertising_Data"))
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        precondition(data.count <= 251, "LE Set Extended Advertising Data carries at most 251 octets; validate() first")
        writer.write(handle)
        writer.write(operation.rawValue)
        writer.write(UInt8(avoidFragmentation ? 1 : 0))
        writer.write(UInt8(data.count))
        writer.write(contentsOf: data)
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        try HCIValidation.checkHandle(handle)
        try HCIValidation.checkRange("Operation", operation.rawValue, 0...4, "0x00…0x04")
        try HCIValidation.checkDataLength(data.count, legacyPDUs: false)
        if operation == .unchangedData, !data.isEmpty {
            throw .valueOutOfRange(field: "Advertising_Data_Length", value: UInt64(data.count), allowed: "0 with operation 0x04 (unchanged data)")
        }
    }

    /// Also checks the 31-octet limit when the set was configured with legacy PDUs.
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
