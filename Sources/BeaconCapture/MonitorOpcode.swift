// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// The packet opcodes of BlueZ's monitor channel, as btsnoop datalink 2001 and pcap link type 254
/// carry them (BlueZ `src/shared/btsnoop.h`, `BTSNOOP_OPCODE_*`). Only packet opcodes map to an
/// HCI packet; the others (new/delete index, system notes, logging, …) are metadata.
public enum MonitorOpcode {
    public static let newIndex: UInt16 = 0
    public static let deleteIndex: UInt16 = 1
    public static let commandPacket: UInt16 = 2
    public static let eventPacket: UInt16 = 3
    public static let aclTxPacket: UInt16 = 4
    public static let aclRxPacket: UInt16 = 5
    public static let scoTxPacket: UInt16 = 6
    public static let scoRxPacket: UInt16 = 7
    public static let isoTxPacket: UInt16 = 18
    public static let isoRxPacket: UInt16 = 19

    /// The HCI packet type and direction of a packet opcode; `nil` for metadata opcodes.
    @inlinable
    public static func packet(_ opcode: UInt16) -> (H4PacketType, CaptureDirection)? {
        switch opcode {
        case commandPacket: (.command, .sent)
        case eventPacket: (.event, .received)
        case aclTxPacket: (.acl, .sent)
        case aclRxPacket: (.acl, .received)
        case scoTxPacket: (.sco, .sent)
        case scoRxPacket: (.sco, .received)
        case isoTxPacket: (.iso, .sent)
        case isoRxPacket: (.iso, .received)
        default: nil
        }
    }
}
