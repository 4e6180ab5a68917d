// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Remove Advertising Set — Core Vol 4 Part E §7.8.59, opcode 0x203C.
///
/// ```
/// Advertising_Handle  1 octet  0x00…0xEF
/// ```
/// Returns: Status (Unknown Advertising Identifier if no such set; Command Disallowed while it
/// is advertising).
@frozen
public struct LERemoveAdvertisingSet: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x203C)
    public static let name = "LE Remove Advertising Set"

    public var handle: UInt8

    @inlinable public init(handle: UInt8) { self.handle = handle }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        handle = try reader.readUInt8("Advertising_Handle")
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) { writer.write(handle) }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        try HCIValidation.checkHandle(handle)
    }
}
