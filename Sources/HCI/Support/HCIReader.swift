// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Reads HCI fields least-significant byte first from a slice, throwing instead of trapping when
/// the bytes run out: everything it reads came from a controller or a capture file.
@frozen
public struct HCIReader: Sendable {
    @usableFromInline let bytes: ArraySlice<UInt8>
    /// The index of the next byte to read, in `bytes`' indices.
    @usableFromInline var position: Int

    @inlinable
    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    @inlinable
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Bytes not read yet.
    @inlinable public var remaining: Int { bytes.endIndex - position }
    /// Whether every byte was read.
    @inlinable public var isAtEnd: Bool { position == bytes.endIndex }
    /// How many bytes were read so far.
    @inlinable public var consumed: Int { position - bytes.startIndex }

    @inlinable
    mutating func need(_ count: Int, for field: StaticString) throws(HCIDecodingError) {
        guard remaining >= count else {
            throw .truncated(field: String(describing: field), needed: count, available: remaining)
        }
    }

    @inlinable
    public mutating func readUInt8(_ field: StaticString) throws(HCIDecodingError) -> UInt8 {
        try need(1, for: field)
        defer { position += 1 }
        return bytes[position]
    }

    @inlinable
    public mutating func readInt8(_ field: StaticString) throws(HCIDecodingError) -> Int8 {
        Int8(bitPattern: try readUInt8(field))
    }

    @inlinable
    public mutating func readUInt16(_ field: StaticString) throws(HCIDecodingError) -> UInt16 {
        try need(2, for: field)
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    @inlinable
    public mutating func readUInt24(_ field: StaticString) throws(HCIDecodingError) -> UInt32 {
        try need(3, for: field)
        defer { position += 3 }
        return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
    }

    @inlinable
    public mutating func readUInt32(_ field: StaticString) throws(HCIDecodingError) -> UInt32 {
        try need(4, for: field)
        defer { position += 4 }
        return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
    }

    @inlinable
    public mutating func readUInt64(_ field: StaticString) throws(HCIDecodingError) -> UInt64 {
        try need(8, for: field)
        var v: UInt64 = 0
        for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[position + i]) }
        position += 8
        return v
    }

    @inlinable
    public mutating func readAddress(_ field: StaticString) throws(HCIDecodingError) -> BluetoothAddress {
        try need(6, for: field)
        var v: UInt64 = 0
        for i in (0..<6).reversed() { v = v << 8 | UInt64(bytes[position + i]) }
        position += 6
        return BluetoothAddress(v)
    }

    /// Reads `count` opaque bytes.
    @inlinable
    public mutating func readBytes(_ count: Int, _ field: StaticString) throws(HCIDecodingError) -> ArraySlice<UInt8> {
        try need(count, for: field)
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// Reads a packet header's 1-octet parameter length and checks that exactly that many octets
    /// follow (Core Vol 4 Part E §5.4.1 commands, §5.4.4 events).
    @inlinable
    public mutating func readParameterLength(_ field: StaticString) throws(HCIDecodingError) {
        let length = Int(try readUInt8(field))
        guard remaining == length else { throw .lengthMismatch(declared: length, actual: remaining) }
    }

    /// Everything not read yet.
    @inlinable
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        defer { position = bytes.endIndex }
        return bytes[position...]
    }

    /// Throws when bytes are left over: command parameters have an exact length in the spec.
    @inlinable
    public func expectEnd(of what: StaticString) throws(HCIDecodingError) {
        guard isAtEnd else { throw .trailingBytes(after: String(describing: what), count: remaining) }
    }
}

extension HCIReader {
    /// A 0x00/0x01 octet; anything else is not a value the spec defines.
    @inlinable
    public mutating func readFlag(_ field: StaticString) throws(HCIDecodingError) -> Bool {
        switch try readUInt8(field) {
        case 0: return false
        case 1: return true
        case let other: throw .invalidValue(field: String(describing: field), value: UInt64(other), allowed: "0x00 or 0x01")
        }
    }
}
