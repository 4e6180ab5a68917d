// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Command Complete — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Event Code:         0x0001
/// Controller Index:   <controller id> or <non-controller>
/// Event Parameters:   Command_Opcode (2 Octets)
///                     Status (1 Octet)
///                     Return_Parameters[] (variable)
/// ```
/// The kernel answers a failed command with Command Complete too (status not 0), sometimes with
/// return parameters (Add Advertising echoes the instance).
public struct MgmtCommandCompleteEvent: Hashable, Sendable {
    public static let code: UInt16 = 0x0001
    public var opcode: MgmtOpcode
    public var status: MgmtStatus
    public var returnParameters: [UInt8]

    public init(opcode: MgmtOpcode, status: MgmtStatus, returnParameters: [UInt8] = []) {
        self.opcode = opcode
        self.status = status
        self.returnParameters = returnParameters
    }

    public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
        opcode = MgmtOpcode(rawValue: try reader.readUInt16("Command_Opcode"))
        status = MgmtStatus(rawValue: try reader.readUInt8("Status"))
        returnParameters = Array(reader.readRemaining())
    }

    public func encode(into writer: inout HCIWriter) {
        writer.write(opcode.rawValue)
        writer.write(status.rawValue)
        writer.write(contentsOf: returnParameters)
    }

    /// The typed return parameters of `command`. Extra octets at the end are left unread: later
    /// kernels may append fields.
    public func result<C: MgmtCommand>(for command: C.Type) throws(HCIDecodingError) -> C.ReturnParameters {
        var reader = HCIReader(returnParameters)
        return try C.ReturnParameters(decoding: &reader)
    }
}
