// SPDX-License-Identifier: GPL-2.0-or-later

/// Up to 31 bytes of legacy advertising data in fixed inline storage: building, copying and passing
/// one never touches the heap.
@frozen
public struct AdvertisingPayload: RandomAccessCollection, Hashable, Sendable, CustomStringConvertible {
    /// The fixed inline bytes (31, the legacy maximum): a payload never allocates.
    public typealias Storage = (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
    )
    /// The capacity: the legacy advertising data limit.
    public static let capacity = 31

    @usableFromInline var storage: Storage = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    @usableFromInline var length: Int = 0
    /// Number of significant bytes.
    @inlinable public var count: Int { length }

    @inlinable public init() {}

    /// Copies up to 31 bytes; `nil` when `bytes` is longer.
    @inlinable
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count <= Self.capacity else { return nil }
        self.init()
        withUnsafeMutableBytes(of: &storage) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        length = bytes.count
    }

    /// Fills the payload through a raw buffer of 31 bytes; `body` returns how many it wrote.
    @inlinable
    public init(filling body: (UnsafeMutableRawBufferPointer) -> Int) {
        self.init()
        let n = withUnsafeMutableBytes(of: &storage) { body($0) }
        precondition(n >= 0 && n <= Self.capacity)
        length = n
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "index out of range")
        return Swift.withUnsafeBytes(of: storage) { $0[position] }
    }

    /// Calls `body` with the significant bytes.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var copy = storage
        let n = count
        // `withUnsafeBytes(of:)` is rethrows-only; route the typed error through a Result.
        let result: Result<R, E> = Swift.withUnsafeBytes(of: &copy) { raw in
            do throws(E) { return .success(try body(UnsafeRawBufferPointer(rebasing: raw[0..<n]))) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The bytes zero-padded to 31, as HCI LE Set Advertising Data carries them.
    @inlinable
    public var padded: Storage {
        var copy = storage
        let n = count
        Swift.withUnsafeMutableBytes(of: &copy) { raw in
            for i in n..<Self.capacity { raw[i] = 0 }
        }
        return copy
    }

    public static func == (a: AdvertisingPayload, b: AdvertisingPayload) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for b in self { hasher.combine(b) }
    }

    /// Upper-case hex without separators, e.g. `0201061AFF4C000215…`.
    public var description: String { Hex.string(self) }
}
