// SPDX-License-Identifier: GPL-2.0-or-later

/// Command Status — Core Vol 4 Part E §7.7.15, event code 0x0F: the controller accepted (or
/// refused) a command whose result comes later in another event.
///
/// ```
/// Status                   1 octet
/// Num_HCI_Command_Packets  1 octet
/// Command_Opcode           2 octets
/// ```
@frozen
public struct HCICommandStatusEvent: HCIEventParameters {
    public static let eventCode = HCIEventCode.commandStatus

    public var status: HCIStatus
    public var numHCICommandPackets: UInt8
    public var opcode: HCIOpcode

    @inlinable
    public init(status: HCIStatus, numHCICommandPackets: UInt8 = 1, opcode: HCIOpcode) {
        self.status = status
        self.numHCICommandPackets = numHCICommandPackets
        self.opcode = opcode
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        status = HCIStatus(rawValue: try reader.readUInt8("Status"))
        numHCICommandPackets = try reader.readUInt8("Num_HCI_Command_Packets")
        opcode = HCIOpcode(rawValue: try reader.readUInt16("Command_Opcode"))
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(status.rawValue)
        writer.write(numHCICommandPackets)
        writer.write(opcode.rawValue)
    }
}
