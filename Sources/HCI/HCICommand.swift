// SPDX-License-Identifier: GPL-2.0-or-later

/// One HCI command from Core Vol 4 Part E §7: its opcode, its parameters in spec order, and the
/// type of the return parameters its Command Complete event carries after the status byte.
///
/// Every command can both encode its parameters and decode them back, so the same types serve the
/// host, the virtual controller and the capture decoders.
public protocol HCICommand: Sendable, Hashable, CustomStringConvertible {
    /// What Command Complete returns after the status byte (`HCINoReturnParameters` for commands
    /// that return the status alone).
    associatedtype ReturnParameters: HCIReturnParameters = HCINoReturnParameters

    static var opcode: HCIOpcode { get }
    /// The command's name in the specification, e.g. `LE Set Advertising Parameters`.
    static var name: String { get }

    /// Appends the parameters (not the opcode or the length) in spec order, little-endian.
    func encodeParameters(into writer: inout HCIWriter)

    /// Reads the parameters (not the opcode or the length). Structure only: out-of-range values
    /// decode fine and are caught by `validate(for:)`.
    init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError)

    /// Checks the parameters against the specification's ranges and what is known about the
    /// controller, before sending. The default accepts everything.
    func validate(for controller: HCIControllerInfo) throws(HCIValidationError)
}

extension HCICommand {
    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {}

    /// `LE Set Advertising Enable (0x08|0x000A)`.
    public var description: String { "\(Self.name) (\(Self.opcode))" }

    /// Appends opcode, parameter length and parameters: the HCI command packet without the H4
    /// indicator (Core Vol 4 Part E §5.4.1).
    @inlinable
    public func encode(into writer: inout HCIWriter) {
        writer.write(Self.opcode.rawValue)
        let lengthIndex = writer.bytes.count
        writer.write(UInt8(0))
        encodeParameters(into: &writer)
        let length = writer.bytes.count - lengthIndex - 1
        precondition(length <= 255, "HCI command parameters are at most 255 bytes")
        writer.patch(UInt8(length), at: lengthIndex)
    }

    /// Opcode, parameter length and parameters (no H4 indicator).
    @inlinable
    public var packetBytes: [UInt8] {
        var writer = HCIWriter(capacity: 3 + 32)
        encode(into: &writer)
        return writer.bytes
    }

    /// The bytes as they travel on a UART/H4 transport: `0x01` then the command packet.
    @inlinable
    public var h4Bytes: [UInt8] {
        var writer = HCIWriter(capacity: 4 + 32)
        writer.write(H4PacketType.command.rawValue)
        encode(into: &writer)
        return writer.bytes
    }

    /// The parameters alone.
    @inlinable
    public var parameterBytes: [UInt8] {
        var writer = HCIWriter()
        encodeParameters(into: &writer)
        return writer.bytes
    }

    /// The command as an `HCICommandPacket` (opcode + parameters).
    @inlinable
    public var packet: HCICommandPacket { HCICommandPacket(opcode: Self.opcode, parameters: parameterBytes) }

    /// Decodes a packet whose opcode must be this command's; every parameter byte must be used.
    @inlinable
    public init(packet: HCICommandPacket) throws(HCIDecodingError) {
        guard packet.opcode == Self.opcode else { throw .opcodeMismatch(expected: Self.opcode, actual: packet.opcode) }
        var reader = HCIReader(packet.parameters)
        try self.init(decodingParameters: &reader)
        try reader.expectEnd(of: "command parameters")
    }
}

/// The return parameters of a command after its status byte (Core Vol 4 Part E §7.7.14).
public protocol HCIReturnParameters: Sendable, Hashable {
    /// Reads the parameters after the status. Extra bytes at the end are left unread: later spec
    /// versions may append parameters, and the caller decides whether to mind.
    init(decoding reader: inout HCIReader) throws(HCIDecodingError)
    func encode(into writer: inout HCIWriter)
}

/// For commands whose Command Complete carries the status alone.
@frozen
public struct HCINoReturnParameters: HCIReturnParameters {
    @inlinable public init() {}
    @inlinable public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encode(into writer: inout HCIWriter) {}
}
