// SPDX-License-Identifier: GPL-2.0-or-later

/// A 128-bit proximity UUID, stored as two big-endian 64-bit halves (fixed storage, no heap).
///
/// Parses from the canonical 8-4-4-4-12 form (`E2C56DB5-DFFB-48D2-B060-D0F5A71096E0`) or from 32
/// hex digits, in any case; prints in canonical upper case. On the air the 16 bytes go in
/// big-endian order (the first byte of the string first), unlike most of Bluetooth.
@frozen
public struct BeaconUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bytes 0–7 of the UUID as a big-endian integer.
    public var high: UInt64
    /// Bytes 8–15 of the UUID as a big-endian integer.
    public var low: UInt64

    @inlinable
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Reads 16 bytes in network (big-endian) order, as they appear in an iBeacon payload.
    /// - Precondition: `bytes.count >= 16`.
    @inlinable
    public init(bigEndianBytes bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 16, "a UUID needs 16 bytes")
        var h: UInt64 = 0
        var l: UInt64 = 0
        for i in 0..<8 { h = h << 8 | UInt64(bytes[i]) }
        for i in 8..<16 { l = l << 8 | UInt64(bytes[i]) }
        self.init(high: h, low: l)
    }

    /// Reads exactly 16 bytes in big-endian order; `nil` for any other count.
    @inlinable
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var h: UInt64 = 0
        var l: UInt64 = 0
        for (i, b) in bytes.enumerated() {
            if i < 8 { h = h << 8 | UInt64(b) } else { l = l << 8 | UInt64(b) }
        }
        self.init(high: h, low: l)
    }

    /// Parses the canonical 8-4-4-4-12 form or 32 hex digits, upper or lower case.
    /// Returns `nil` for anything else (braces, URN prefixes and misplaced hyphens included).
    @inlinable
    public init?(_ text: some StringProtocol) {
        // Parse the contiguous UTF-8 bytes directly: walking `utf8` index by index through the
        // general String path is 2–3× slower (see BENCHMARKS.md).
        let parsed = text.utf8.withContiguousStorageIfAvailable { Self.parse(UnsafeRawBufferPointer($0)) }
        let value: BeaconUUID?
        if let parsed {
            value = parsed
        } else {
            var copy = String(text)
            value = copy.withUTF8 { Self.parse(UnsafeRawBufferPointer($0)) }
        }
        guard let value else { return nil }
        self = value
    }

    /// Parses UTF-8 bytes in either accepted form.
    @inlinable
    static func parse(_ utf8: UnsafeRawBufferPointer) -> BeaconUUID? {
        let hyphenated: Bool
        switch utf8.count {
        case 36: hyphenated = true
        case 32: hyphenated = false
        default: return nil
        }
        var h: UInt64 = 0
        var l: UInt64 = 0
        var digits = 0
        for position in 0..<utf8.count {
            let c = utf8[position]
            if hyphenated, position == 8 || position == 13 || position == 18 || position == 23 {
                guard c == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let v = HexDigit.value(c) else { return nil }
            if digits < 16 { h = h << 4 | UInt64(v) } else { l = l << 4 | UInt64(v) }
            digits += 1
        }
        return digits == 32 ? BeaconUUID(high: h, low: l) : nil
    }

    /// Writes the 16 bytes in big-endian order to `buffer[offset..<offset+16]`.
    @inlinable
    public func write(to buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && offset + 16 <= buffer.count, "no room for a UUID")
        buffer.storeBytes(of: high.bigEndian, toByteOffset: offset, as: UInt64.self)
        buffer.storeBytes(of: low.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
    }

    /// The 16 bytes in big-endian (on-air) order.
    public var bytes: [UInt8] {
        (0..<16).map { i in
            let word = i < 8 ? high : low
            return UInt8(truncatingIfNeeded: word >> (UInt64(7 - i % 8) * 8))
        }
    }

    /// Canonical upper-case 8-4-4-4-12 form.
    /// Appends ``description`` (8-4-4-4-12, upper case) as ASCII bytes, without building a
    /// `String`: for writers of millions of lines (`decode --capture`, BeaconJSON).
    @inlinable
    public func appendText(to out: inout [UInt8]) {
        for i in 0..<16 {
            let byte = UInt8(truncatingIfNeeded: (i < 8 ? high : low) >> (8 * UInt64(7 - i % 8)))
            let high = byte >> 4, low = byte & 0x0F
            out.append(high < 10 ? 48 + high : 55 + high)
            out.append(low < 10 ? 48 + low : 55 + low)
            if i == 3 || i == 5 || i == 7 || i == 9 { out.append(UInt8(ascii: "-")) }
        }
    }

    public var description: String {
        var out = ""
        out.reserveCapacity(36)
        for (i, b) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append("-") }
            out.append(HexDigit.upper(b >> 4))
            out.append(HexDigit.upper(b & 0x0F))
        }
        return out
    }

    @inlinable
    public static func < (a: BeaconUUID, b: BeaconUUID) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }
}

/// Hex digit helpers shared by the codec's parsers and printers.
public enum HexDigit {
    /// The value of an ASCII hex digit (either case), or `nil`.
    @inlinable
    public static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    /// The upper-case hex digit for a nibble (0–15).
    public static func upper(_ nibble: UInt8) -> Character {
        Character(Unicode.Scalar(nibble < 10 ? 48 + nibble : 55 + nibble))
    }
}
