// SPDX-License-Identifier: GPL-2.0-or-later

/// Command Complete — Core Vol 4 Part E §7.7.14, event code 0x0E.
///
/// ```
/// Num_HCI_Command_Packets  1 octet   how many commands the host may send now
/// Command_Opcode           2 octets  the command this completes
/// Return_Parameters        n octets  the command's; nearly always Status first
/// ```
@frozen
public struct HCICommandCompleteEvent: HCIEventParameters {
    public static let eventCode = HCIEventCode.commandComplete

    public var numHCICommandPackets: UInt8
    public var opcode: HCIOpcode
    /// Status first, then the command's return parameters, undecoded: decode with `result(for:)`.
    public var returnParameters: [UInt8]

    @inlinable
    public init(numHCICommandPackets: UInt8 = 1, opcode: HCIOpcode, returnParameters: [UInt8]) {
        self.numHCICommandPackets = numHCICommandPackets
        self.opcode = opcode
        self.returnParameters = returnParameters
    }

    /// A successful (or any-status) reply to `C` carrying typed return parameters.
    @inlinable
    public init<C: HCICommand>(for command: C.Type, status: HCIStatus = .success, returnParameters: C.ReturnParameters,
                               numHCICommandPackets: UInt8 = 1) {
        var writer = HCIWriter()
        writer.write(status.rawValue)
        returnParameters.encode(into: &writer)
        self.init(numHCICommandPackets: numHCICommandPackets, opcode: C.opcode, returnParameters: writer.bytes)
    }

    /// A reply to `C` carrying only a status (the usual form of a failure).
    @inlinable
    public init<C: HCICommand>(for command: C.Type, status: HCIStatus, numHCICommandPackets: UInt8 = 1) {
        self.init(numHCICommandPackets: numHCICommandPackets, opcode: C.opcode, returnParameters: [status.rawValue])
    }

    /// The first return parameter, or `nil` when there is none (a credits-only No-Op reply).
    @inlinable
    public var status: HCIStatus? { returnParameters.first.map { HCIStatus(rawValue: $0) } }

    /// The typed return parameters of `C`, or why not: another command's reply, a non-zero
    /// status, or bytes that do not parse.
    @inlinable
    public func result<C: HCICommand>(for command: C.Type) throws(HCICommandError) -> C.ReturnParameters {
        guard opcode == C.opcode else { throw .unexpectedOpcode(expected: C.opcode, actual: opcode) }
        var reader = HCIReader(returnParameters)
        let status: UInt8
        do throws(HCIDecodingError) { status = try reader.readUInt8("Status") } catch { throw .malformedReply(command: C.name, error) }
        guard status == 0 else { throw .failed(command: C.name, opcode: C.opcode, status: HCIStatus(rawValue: status)) }
        do throws(HCIDecodingError) { return try C.ReturnParameters(decoding: &reader) } catch { throw .malformedReply(command: C.name, error) }
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        numHCICommandPackets = try reader.readUInt8("Num_HCI_Command_Packets")
        opcode = HCIOpcode(rawValue: try reader.readUInt16("Command_Opcode"))
        returnParameters = Array(reader.readRemaining())
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(numHCICommandPackets)
        writer.write(opcode.rawValue)
        writer.write(contentsOf: returnParameters)
    }
}
