// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Set Scan Enable — Core Vol 4 Part E §7.8.11, opcode 0x200C.
///
/// ```
/// LE_Scan_Enable     1 octet  0x00 off, 0x01 on
/// Filter_Duplicates  1 octet  0x00 report every packet, 0x01 drop duplicates
/// ```
/// Returns: Status.
@frozen
public struct LESetScanEnable: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x200C)
    public static let name = "LE Set Scan Enable"

    public var isEnabled: Bool
    public var filterDuplicates: Bool

    @inlinable public init(_ isEnabled: Bool, filterDuplicates: Bool = false) {
        self.isEnabled = isEnabled
        self.filterDuplicates = filterDuplicates
    }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        isEnabled = try reader.readFlag("LE_Scan_Enable")
        filterDuplicates = try reader.readFlag("Filter_Duplicates")
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(UInt8(isEnabled ? 1 : 0))
        writer.write(UInt8(filterDuplicates ? 1 : 0))
    }
}
