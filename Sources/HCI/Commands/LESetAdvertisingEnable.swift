// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Set Advertising Enable — Core Vol 4 Part E §7.8.9, opcode 0x200A.
///
/// ```
/// Advertising_Enable  1 octet  0x00 off, 0x01 on
/// ```
/// Returns: Status.
@frozen
public struct LESetAdvertisingEnable: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x200A)
    public static let name = "LE Set Advertising Enable"

    public var isEnabled: Bool

    @inlinable public init(_ isEnabled: Bool) { self.isEnabled = isEnabled }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        isEnabled = try reader.readFlag("Advertising_Enable")
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) { writer.write(UInt8(isEnabled ? 1 : 0)) }
}
