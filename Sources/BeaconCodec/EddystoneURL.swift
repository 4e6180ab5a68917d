// SPDX-License-Identifier: GPL-2.0-or-later

/// An Eddystone-URL frame (frame type 0x10): TX power at 0 m, a scheme prefix byte and up to 17
/// bytes of URL in which expansion codes stand for common text (`.com/` is one byte).
///
/// Holds the URL as sent (encoded, inline: no heap); ``url`` expands it, ``init(url:txPower:)``
/// encodes text, choosing the longest scheme and expansion at each position.
public struct EddystoneURL: Hashable, Sendable, CustomStringConvertible {
    public var txPower: Int8
    /// The scheme prefix code, 0…3 (see ``EddystoneURLCodes/schemes``).
    public let scheme: UInt8
    @usableFromInline let encoded: EncodedURL

    /// Encodes `url`, which must start with one of the four schemes Eddystone can carry.
    public init(url: String, txPower: Int8 = EddystoneFormat.defaultPowerAt0m) throws(EddystoneURLError) {
        self.txPower = txPower
        (scheme, encoded) = try EddystoneURLCodes.encode(url)
    }

    /// From the bytes as sent: `nil` for an unknown scheme, more than 17 bytes, or a byte
    /// Eddystone reserves (0x0E–0x20, 0x7F–0xFF).
    public init?(scheme: UInt8, encoded bytes: UnsafeRawBufferPointer, txPower: Int8) {
        guard scheme <= EddystoneURLCodes.lastScheme, bytes.count <= EddystoneFormat.urlMaximumLength,
              bytes.allSatisfy(EddystoneURLCodes.isAllowed) else { return nil }
        self.scheme = scheme
        self.txPower = txPower
        var e = EncodedURL()
        for b in bytes { e.append(b) }
        encoded = e
    }

    /// The URL bytes after the scheme byte, as sent.
    public var encodedBytes: [UInt8] { (0..<encoded.count).map { encoded[$0] } }

    /// The URL as text, expansion codes expanded.
    public var url: String {
        var text = EddystoneURLCodes.schemes[Int(scheme)]
        for i in 0..<encoded.count {
            let b = encoded[i]
            if Int(b) < EddystoneURLCodes.expansions.count {
                text += EddystoneURLCodes.expansions[Int(b)]
            } else {
                text.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return text
    }

    public var description: String { "eddystone-url \(url) power at 0 m \(txPower) dBm" }

    /// 14 + the encoded URL's length with flags (at most 31), 3 fewer without.
    public func encodedSize(flags: BeaconFlags) -> Int {
        EddystoneFormat.encodedSize(frameSize: EddystoneFormat.urlFrameHeaderSize + encoded.count, flags: flags)
    }

    /// Writes `02 01 06 | 03 03 AA FE | LL 16 AA FE | 10 | tx | scheme | url…` and returns the
    /// number of bytes written.
    public func encode(flags: BeaconFlags = .generalDiscoverable, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let frameSize = EddystoneFormat.urlFrameHeaderSize + encoded.count
        let i = EddystoneFormat.writeHeader(frameSize: frameSize, flags: flags, into: buffer)
        buffer[i] = EddystoneFormat.urlFrameType
        buffer[i + 1] = UInt8(bitPattern: txPower)
        buffer[i + 2] = scheme
        for j in 0..<encoded.count { buffer[i + 3 + j] = encoded[j] }
        return i + frameSize
    }

    /// Up to 17 bytes in three words, so the frame stays a plain value (synthesised `Hashable`,
    /// no heap). Unused bytes are zero.
    @usableFromInline
    struct EncodedURL: Hashable, Sendable {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var last: UInt8 = 0
        private(set) var count = 0

        subscript(i: Int) -> UInt8 {
            switch i {
            case 0..<8: return UInt8(truncatingIfNeeded: first >> UInt64(i * 8))
            case 8..<16: return UInt8(truncatingIfNeeded: second >> UInt64((i - 8) * 8))
            default: return last
            }
        }

        /// - Precondition: fewer than 17 bytes so far.
        mutating func append(_ b: UInt8) {
            precondition(count < EddystoneFormat.urlMaximumLength)
            switch count {
            case 0..<8: first |= UInt64(b) << UInt64(count * 8)
            case 8..<16: second |= UInt64(b) << UInt64((count - 8) * 8)
            default: last = b
            }
            count += 1
        }
    }
}
