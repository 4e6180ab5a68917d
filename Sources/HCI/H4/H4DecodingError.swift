// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Why an H4 byte stream could not be split into packets.
public enum H4DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A byte where a packet indicator (0x01…0x05) should be: the stream is out of step, or it is
    /// not H4 at all. `offset` counts bytes from the start of the stream.
    case unknownPacketIndicator(byte: UInt8, offset: Int)
    /// More bytes were fed than the decoder may hold; the caller is feeding faster than it reads
    /// packets, or the stream claims an impossible length.
    case bufferFull(buffered: Int, incoming: Int, limit: Int)

    public var description: String {
        switch self {
        case let .unknownPacketIndicator(byte, offset):
            "byte 0x\(Hex.byte(byte)) at stream offset \(offset) is not an H4 packet indicator (0x01 command, 0x02 ACL, 0x03 SCO, 0x04 event, 0x05 ISO): the stream is out of sync or is not H4"
        case let .bufferFull(buffered, incoming, limit):
            "H4 decoder buffer full: \(buffered) byte(s) held plus \(incoming) incoming exceeds the limit of \(limit)"
        }
    }
}
