// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Set Event Mask — Core Vol 4 Part E §7.8.1, opcode 0x2001.
///
/// ```
/// LE_Event_Mask  8 octets  bit n enables LE subevent n+1 (bit 1: LE Advertising Report)
/// ```
/// Returns: Status.
@frozen
public struct LESetEventMask: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2001)
    public static let name = "LE Set Event Mask"

    public var mask: LEEventMask

    @inlinable public init(_ mask: LEEventMask) { self.mask = mask }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        mask = LEEventMask(rawValue: try reader.readUInt64("LE_Event_Mask"))
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) { writer.write(mask.rawValue) }
}
