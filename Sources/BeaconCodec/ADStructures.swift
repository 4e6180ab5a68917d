// SPDX-License-Identifier: GPL-2.0-or-later

/// One AD structure: `length | type | data[length-1]` (Core Vol 3 Part C §11). `data` points into
/// the buffer being walked; nothing is copied.
@frozen
public struct ADStructure {
    /// Offset of the structure's length byte in the walked buffer.
    public var offset: Int
    public var type: ADType
    /// The structure's data (after the type byte). Valid only while the walked buffer is.
    public var data: UnsafeRawBufferPointer

    @inlinable
    public init(offset: Int, type: ADType, data: UnsafeRawBufferPointer) {
        self.offset = offset
        self.type = type
        self.data = data
    }
}

/// Walks the AD structures of any advertising data (legacy ≤ 31 bytes, or an extended fragment
/// of up to 254), without copying. Unknown AD types are returned like any other.
///
/// A zero length byte ends the significant part (the rest is padding, as HCI's 31-byte field
/// carries it); ``next()`` then checks that only zeros follow.
@frozen
public struct ADStructureWalker {
    public let bytes: UnsafeRawBufferPointer
    @usableFromInline var nextOffset: Int = 0
    /// Offset of the next length byte.
    @inlinable public var position: Int { nextOffset }
    @usableFromInline var finished = false

    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next structure, `nil` at the end of the significant data, or the reason the data is
    /// malformed (after which the walker is finished).
    @inlinable @inline(__always)
    public mutating func next() throws(BeaconDecodingError) -> ADStructure? {
        guard !finished, position < bytes.count else {
            finished = true
            return nil
        }
        let start = position
        let length = Int(bytes[start])
        if length == 0 {
            finished = true
            var i = start + 1
            while i < bytes.count {
                if bytes[i] != 0 { throw BeaconDecodingError(.zeroLengthFollowedByData, at: start) }
                i += 1
            }
            return nil
        }
        guard start + 1 < bytes.count else {
            finished = true
            throw BeaconDecodingError(.truncatedStructure, at: start)
        }
        guard start + 1 + length <= bytes.count else {
            finished = true
            throw BeaconDecodingError(.lengthOverrun, at: start)
        }
        nextOffset = start + 1 + length
        let data = UnsafeRawBufferPointer(rebasing: bytes[(start + 2)..<(start + 1 + length)])
        return ADStructure(offset: start, type: ADType(rawValue: bytes[start + 1]), data: data)
    }
}

/// A `Sequence` view of the AD structures that stops quietly at the first malformed one; use
/// ``ADStructureWalker`` to learn why it stopped.
@frozen
public struct ADStructures: Sequence {
    public let bytes: UnsafeRawBufferPointer
    @inlinable public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Walks the AD structures in order.
    @frozen
    public struct Iterator: IteratorProtocol {
        @usableFromInline var walker: ADStructureWalker
        @inlinable init(_ walker: ADStructureWalker) { self.walker = walker }
        @inlinable public mutating func next() -> ADStructure? { (try? walker.next()) ?? nil }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(ADStructureWalker(bytes)) }
}
