// SPDX-License-Identifier: GPL-2.0-or-later

/// A 48-bit Bluetooth device address (BD_ADDR).
///
/// Printed most-significant byte first (`C0:11:22:33:44:55`), as BlueZ and phones show it; on the
/// air and in HCI it travels least-significant byte first (Core Vol 6 Part B §1.3 and Vol 4 Part E).
@frozen
public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The address in the low 48 bits.
    public let value: UInt64

    @inlinable
    public init(_ value: UInt64) {
        precondition(value >> 48 == 0, "a Bluetooth address has 48 bits")
        self.value = value
    }

    /// Reads six bytes least-significant first, as HCI carries them.
    @inlinable
    public init(littleEndianBytes bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 6)
        var v: UInt64 = 0
        for i in (0..<6).reversed() { v = v << 8 | UInt64(bytes[i]) }
        self.value = v
    }

    /// Parses `C0:11:22:33:44:55` (or with `-`), most-significant byte first, any case: exactly
    /// six two-digit groups and one kind of separator.
    public init?(_ text: some StringProtocol) {
        // Read the 17 characters by hand: `split` would drop empty groups (`C0::11:22:33:44:55:`)
        // and `UInt8(_:radix:)` would accept a sign (`+1`).
        var v: UInt64 = 0
        var separator: UInt8? = nil
        var position = 0
        for c in text.utf8 {
            defer { position += 1 }
            if position % 3 == 2 {
                guard c == UInt8(ascii: ":") || c == UInt8(ascii: "-"), separator == nil || separator == c else { return nil }
                separator = c
                continue
            }
            guard let digit = HexDigit.value(c) else { return nil }
            v = v << 4 | UInt64(digit)
        }
        guard position == 17 else { return nil }
        self.value = v
    }

    /// The six bytes least-significant first (HCI/air order).
    @inlinable
    public var littleEndianBytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {
        (UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 32), UInt8(truncatingIfNeeded: value >> 40))
    }

    /// Writes the six bytes least-significant first at `offset`.
    @inlinable
    public func write(to buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && offset + 6 <= buffer.count)
        for i in 0..<6 { buffer[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }

    /// Whether this is a valid random static address (Core Vol 6 Part B §1.3.2.1): the two most
    /// significant bits are 1, and the remaining 46 bits are neither all 0 nor all 1.
    @inlinable
    public var isStaticRandom: Bool {
        let rest = value & 0x3FFF_FFFF_FFFF
        return value >> 46 == 0b11 && rest != 0 && rest != 0x3FFF_FFFF_FFFF
    }

    public var description: String {
        (0..<6).reversed().map { i in Hex.string([UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))]) }
            .joined(separator: ":")
    }

    @inlinable
    public static func < (a: BluetoothAddress, b: BluetoothAddress) -> Bool { a.value < b.value }
}
