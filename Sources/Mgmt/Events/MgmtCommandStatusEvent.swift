// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Command Status — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Event Code:         0x0002
/// Controller Index:   <controller id> or <non-controller>
/// Event Parameters:   Command_Opcode (2 Octets)
///                     Status (1 Octet)
/// ```
/// "In the case that the status indicates failure … this also means that the command has finished
/// executing." Unknown commands, invalid lengths and invalid indexes always get this one.
public struct MgmtCommandStatusEvent: Hashable, Sendable {
    public static let code: UInt16 = 0x0002
    public var opcode: MgmtOpcode
    public var status: MgmtStatus

    public init(opcode: MgmtOpcode, status: MgmtStatus) {
        self.opcode = opcode
        self.status = status
    }

    public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
        opcode = MgmtOpcode(rawValue: try reader.readUInt16("Command_Opcode"))
        status = MgmtStatus(rawValue: try reader.readUInt8("Status"))
        try reader.expectEnd(of: "Command Status")
    }

    public func encode(into writer: inout HCIWriter) {
        writer.write(opcode.rawValue)
        writer.write(status.rawValue)
    }
}
