// SPDX-License-Identifier: GPL-2.0-or-later

/// Reassembles H4 packets from a byte stream cut anywhere: one byte at a time, whole reads, or
/// several packets per read all give the same packets.
///
/// Bytes are kept in one growing buffer and consumed by index, so decoding allocates once per
/// packet (its `bytes`), never per byte. The buffer is bounded by `maximumBufferedBytes`.
///
/// A byte that is not a packet indicator throws `H4DecodingError.unknownPacketIndicator` with the
/// byte and its stream offset, and is dropped, so decoding can never spin on it.
public struct H4StreamDecoder: Sendable {
    @usableFromInline var buffer: [UInt8] = []
    /// Index in `buffer` of the first unconsumed byte.
    @usableFromInline var readIndex = 0
    /// Stream offset of `buffer[readIndex]`.
    @usableFromInline var streamOffset = 0
    /// The most bytes held at once.
    public let maximumBufferedBytes: Int

    /// The default limit fits the largest possible packet (ACL: 1 + 4 + 65535) plus a 64 KiB read.
    public static let defaultMaximumBufferedBytes = 1 + 4 + 65_535 + 65_536

    public init(maximumBufferedBytes: Int = H4StreamDecoder.defaultMaximumBufferedBytes) {
        precondition(maximumBufferedBytes > 0)
        self.maximumBufferedBytes = maximumBufferedBytes
    }

    /// Bytes received but not yet returned as packets.
    @inlinable public var bufferedByteCount: Int { buffer.count - readIndex }

    /// The stream offset of the next byte to decode.
    @inlinable public var offset: Int { streamOffset }

    /// Adds received bytes. Throws `bufferFull` (and keeps nothing of `bytes`) when they would not
    /// fit.
    @inlinable
    public mutating func append(_ bytes: some Collection<UInt8>) throws(H4DecodingError) {
        let incoming = bytes.count
        guard bufferedByteCount + incoming <= maximumBufferedBytes else {
            throw .bufferFull(buffered: bufferedByteCount, incoming: incoming, limit: maximumBufferedBytes)
        }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete packet, or `nil` when more bytes are needed.
    @inlinable
    public mutating func next() throws(H4DecodingError) -> H4Packet? {
        guard readIndex < buffer.count else { return nil }
        let indicator = buffer[readIndex]
        guard let type = H4PacketType(rawValue: indicator) else {
            let offset = streamOffset
            readIndex += 1
            streamOffset += 1
            throw .unknownPacketIndicator(byte: indicator, offset: offset)
        }
        let headerStart = readIndex + 1
        let headerEnd = headerStart + type.headerLength
        guard headerEnd <= buffer.count else { return nil }
        let payloadLength = buffer.withUnsafeBytes { raw in
            type.payloadLength(header: UnsafeRawBufferPointer(rebasing: raw[headerStart..<headerEnd]))
        }
        let end = headerEnd + payloadLength
        guard end <= buffer.count else { return nil }
        let packet = H4Packet(type: type, bytes: Array(buffer[headerStart..<end]))
        streamOffset += end - readIndex
        readIndex = end
        return packet
    }

    /// Adds `bytes` and returns every packet now complete.
    ///
    /// When garbage follows complete packets, those packets are returned first and the garbage is
    /// left for the next call, which throws; garbage at the front throws at once.
    @inlinable
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(H4DecodingError) -> [H4Packet] {
        try append(bytes)
        var packets: [H4Packet] = []
        while true {
            if !packets.isEmpty, readIndex < buffer.count, H4PacketType(rawValue: buffer[readIndex]) == nil {
                return packets
            }
            guard let packet = try next() else { return packets }
            packets.append(packet)
        }
    }

    /// Drops everything buffered (after a transport reset).
    public mutating func reset() {
        streamOffset += bufferedByteCount
        buffer.removeAll(keepingCapacity: true)
        readIndex = 0
    }

    /// Moves unconsumed bytes to the front once the consumed prefix is large, so the buffer stays
    /// bounded without shifting on every packet.
    @inlinable
    mutating func compactIfWorthwhile() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex >= 4096 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
