// SPDX-License-Identifier: GPL-2.0-or-later

/// Set Event Mask — Core Vol 4 Part E §7.3.1, opcode 0x0C01.
///
/// ```
/// Event_Mask  8 octets  bit n enables event n (bit 61: LE Meta)
/// ```
/// Returns: Status.
@frozen
public struct HCISetEventMask: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x0C01)
    public static let name = "Set Event Mask"

    public var mask: HCIEventMask

    @inlinable public init(_ mask: HCIEventMask) { self.mask = mask }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        mask = HCIEventMask(rawValue: try reader.readUInt64("Event_Mask"))
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) { writer.write(mask.rawValue) }
}
