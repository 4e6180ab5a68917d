// SPDX-License-Identifier: GPL-2.0-or-later

/// A command packet whose parameters are not interpreted yet: what a controller (or a capture)
/// receives. `HCICommandRegistry.decode(_:)` turns it into a typed command.
@frozen
public struct HCICommandPacket: Hashable, Sendable, CustomStringConvertible {
    public var opcode: HCIOpcode
    public var parameters: [UInt8]

    @inlinable
    public init(opcode: HCIOpcode, parameters: [UInt8]) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Parses opcode (2 bytes LE), parameter length (1) and exactly that many parameter bytes.
    @inlinable
    public init(bytes: ArraySlice<UInt8>) throws(HCIDecodingError) {
        var reader = HCIReader(bytes)
        opcode = HCIOpcode(rawValue: try reader.readUInt16("command opcode"))
        try reader.readParameterLength("command parameter length")
        parameters = Array(reader.readRemaining())
    }

    @inlinable
    public init(bytes: [UInt8]) throws(HCIDecodingError) { try self.init(bytes: bytes[...]) }

    /// Opcode, length and parameters (no H4 indicator).
    @inlinable
    public var bytes: [UInt8] {
        precondition(parameters.count <= 255, "HCI command parameters are at most 255 bytes")
        var writer = HCIWriter(capacity: 3 + parameters.count)
        writer.write(opcode.rawValue)
        writer.write(UInt8(parameters.count))
        writer.write(contentsOf: parameters)
        return writer.bytes
    }

    /// btmon's header line: `LE Set Advertising Parameters (0x08|0x0006) plen 15`.
    public var description: String {
        let name = HCICommandRegistry.commandType(for: opcode)?.name ?? "Unknown command"
        return "\(name) (\(opcode)) plen \(parameters.count)"
    }
}
