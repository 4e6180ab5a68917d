// SPDX-License-Identifier: GPL-2.0-or-later

/// The one-byte packet indicator that precedes every HCI packet on a UART (H4) transport and on
/// Linux HCI user-channel sockets (Core Vol 4 Part A §2).
@frozen
public enum H4PacketType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case command = 0x01
    case acl = 0x02
    case sco = 0x03
    case event = 0x04
    case iso = 0x05

    /// Octets between the indicator and the parameters / data.
    @inlinable
    public var headerLength: Int {
        switch self {
        case .command: 3  // opcode 2, length 1
        case .acl: 4  // handle + flags 2, length 2
        case .sco: 3  // handle + flags 2, length 1
        case .event: 2  // event code 1, length 1
        case .iso: 4  // handle + flags 2, length 2 (14 bits)
        }
    }

    /// Reads the payload length from a complete header (`header.count == headerLength`).
    @inlinable
    func payloadLength(header: UnsafeRawBufferPointer) -> Int {
        switch self {
        case .command, .sco: Int(header[2])
        case .event: Int(header[1])
        case .acl: Int(header[2]) | Int(header[3]) << 8
        // The top two bits of ISO_Data_Load_Length are reserved (Core Vol 4 Part E §5.4.5).
        case .iso: Int(header[2]) | Int(header[3] & 0x3F) << 8
        }
    }

    public var description: String {
        switch self {
        case .command: "HCI Command"
        case .acl: "ACL Data"
        case .sco: "SCO Data"
        case .event: "HCI Event"
        case .iso: "ISO Data"
        }
    }
}
