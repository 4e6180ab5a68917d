// SPDX-License-Identifier: GPL-2.0-or-later

/// One complete HCI packet as framed by H4: its type and its bytes after the indicator (header
/// included), exactly as they travelled.
@frozen
public struct H4Packet: Hashable, Sendable, CustomStringConvertible {
    public var type: H4PacketType
    /// Header and payload, without the indicator byte.
    public var bytes: [UInt8]

    @inlinable
    public init(type: H4PacketType, bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }

    /// Wraps an event.
    @inlinable
    public init(_ event: HCIEventPacket) { self.init(type: .event, bytes: event.bytes) }

    /// Wraps a command.
    @inlinable
    public init(_ command: HCICommandPacket) { self.init(type: .command, bytes: command.bytes) }

    /// Indicator then bytes: what to write to an H4 transport.
    @inlinable
    public var h4Bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1)
        out.append(type.rawValue)
        out.append(contentsOf: bytes)
        return out
    }

    /// The event packet, when this is one.
    @inlinable
    public func eventPacket() throws(HCIDecodingError) -> HCIEventPacket? {
        type == .event ? try HCIEventPacket(bytes: bytes[...]) : nil
    }

    /// The command packet, when this is one.
    @inlinable
    public func commandPacket() throws(HCIDecodingError) -> HCICommandPacket? {
        type == .command ? try HCICommandPacket(bytes: bytes[...]) : nil
    }

    public var description: String { "\(type) (\(bytes.count) bytes)" }
}
