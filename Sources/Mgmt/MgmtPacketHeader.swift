// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// The 6-octet header in front of every management API command and event — BlueZ
/// doc/mgmt-api.txt (doc/mgmt-protocol.rst) "Packet Structures":
///
/// ```
/// Command Code / Event Code   2 octets
/// Controller Index            2 octets   0x0000…0xFFFE controller id, 0xFFFF <non-controller>
/// Parameter Length            2 octets
/// ```
/// "All fields are in little-endian byte order (least significant byte first)." Unlike HCI
/// there is no packet indicator: the control channel carries nothing else.
public struct MgmtPacketHeader: Hashable, Sendable {
    /// The command opcode or the event code.
    public var code: UInt16
    /// The adapter (0 for hci0), or ``MgmtPacketHeader/nonController``.
    public var index: UInt16
    /// How many parameter octets follow.
    public var parameterLength: UInt16

    /// `<non-controller>`: the packet concerns no adapter (Read Management Version Information).
    public static let nonController: UInt16 = 0xFFFF
    /// Octets in the header.
    public static let size = 6

    public init(code: UInt16, index: UInt16, parameterLength: UInt16) {
        self.code = code
        self.index = index
        self.parameterLength = parameterLength
    }

    public func encode(into writer: inout HCIWriter) {
        writer.write(code)
        writer.write(index)
        writer.write(parameterLength)
    }

    public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
        code = try reader.readUInt16("Code")
        index = try reader.readUInt16("Controller Index")
        parameterLength = try reader.readUInt16("Parameter Length")
    }
}

/// One whole management packet (header and parameters), as read from the control socket.
public struct MgmtPacket: Hashable, Sendable {
    public var header: MgmtPacketHeader
    public var parameters: [UInt8]

    /// Splits `bytes` into header and parameters; the length field must match exactly (the kernel
    /// delivers one packet per read).
    public init(decoding bytes: [UInt8]) throws(HCIDecodingError) {
        var reader = HCIReader(bytes)
        header = try MgmtPacketHeader(decoding: &reader)
        guard reader.remaining == Int(header.parameterLength) else {
            throw .lengthMismatch(declared: Int(header.parameterLength), actual: reader.remaining)
        }
        parameters = Array(reader.readRemaining())
    }

    public init(code: UInt16, index: UInt16, parameters: [UInt8]) {
        precondition(parameters.count <= Int(UInt16.max), "management parameters are at most 65535 octets")
        header = MgmtPacketHeader(code: code, index: index, parameterLength: UInt16(parameters.count))
        self.parameters = parameters
    }

    /// Header then parameters, as written to the socket.
    public var bytes: [UInt8] {
        var writer = HCIWriter(capacity: MgmtPacketHeader.size + parameters.count)
        header.encode(into: &writer)
        writer.write(contentsOf: parameters)
        return writer.bytes
    }
}
