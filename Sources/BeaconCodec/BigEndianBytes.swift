// SPDX-License-Identifier: GPL-2.0-or-later

/// Big-endian unsigned fields of 1 to 8 bytes, read and written in place: the Eddystone and
/// AltBeacon identifiers (10, 6, 20 bytes) are not whole machine words.
enum BigEndianBytes {
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in offset..<(offset + count) { value = value << 8 | UInt64(bytes[i]) }
        return value
    }

    static func write(_ value: UInt64, count: Int, to buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        var v = value
        var i = offset + count - 1
        while i >= offset {
            buffer[i] = UInt8(truncatingIfNeeded: v)
            v >>= 8
            i -= 1
        }
    }

    /// Upper-case hex of the low `count` bytes, most significant first.
    static func hex(_ value: UInt64, count: Int) -> String {
        var out = ""
        var shift = (count - 1) * 8
        while shift >= 0 {
            let b = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            out.append(HexDigit.upper(b >> 4))
            out.append(HexDigit.upper(b & 0x0F))
            shift -= 8
        }
        return out
    }

    /// `count` bytes parsed from hex text (separators allowed, as ``Hex/bytes(_:)`` reads them).
    static func parse(_ text: some StringProtocol, count: Int) -> [UInt8]? {
        guard let bytes = Hex.bytes(text), bytes.count == count else { return nil }
        return bytes
    }

    static func value(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
