// SPDX-License-Identifier: GPL-2.0-or-later

/// The pcapng layout (IETF draft-ietf-opsawg-pcapng, what Wireshark and tshark write by default).
///
/// A file is a sequence of blocks: block type (4 bytes), block total length (4), body, the total
/// length again. Every integer is in the byte order of the section, which the Section Header
/// Block gives with its byte-order magic 0x1A2B3C4D; a file may hold several sections (`cat
/// a.pcapng b.pcapng`), each with its own byte order and interfaces. Lengths are multiples of 4.
///
/// | block | body |
/// |---|---|
/// | Section Header (0x0A0D0D0A) | byte-order magic, major 1, minor, section length (8), options |
/// | Interface Description (1) | link type (2), reserved (2), snap length (4), options |
/// | Enhanced Packet (6) | interface, timestamp high, low, captured length, original length, data padded to 4, options |
/// | Simple Packet (3) | original length, data padded to 4 (interface 0, no timestamp) |
///
/// Other block types (name resolution, statistics, secrets, custom, …) are skipped by length.
public enum Pcapng {
    public enum BlockType {
        public static let sectionHeader: UInt32 = 0x0A0D_0D0A
        public static let interfaceDescription: UInt32 = 1
        public static let simplePacket: UInt32 = 3
        public static let enhancedPacket: UInt32 = 6

        /// The block's name as the specification gives it, for messages.
        public static func name(_ type: UInt32) -> String {
            switch type {
            case sectionHeader: "Section Header Block"
            case interfaceDescription: "Interface Description Block"
            case simplePacket: "Simple Packet Block"
            case enhancedPacket: "Enhanced Packet Block"
            default: "block of type 0x" + String(type, radix: 16, uppercase: true)
            }
        }
    }

    /// Read in the section's byte order, this value says which order that is.
    public static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// The only major version there is; a reader must refuse others.
    public static let majorVersion: UInt16 = 1

    /// Interface Description Block options this reader uses.
    public enum InterfaceOption {
        public static let endOfOptions: UInt16 = 0
        /// if_tsresol, 1 byte: bit 7 clear, 10^-n seconds; set, 2^-n (n the low 7 bits). Default 10^-6.
        public static let timestampResolution: UInt16 = 9
        /// if_tsoffset, 8 bytes signed: seconds added to every timestamp of the interface.
        public static let timestampOffset: UInt16 = 14
    }

    /// The smallest total length of each block type: header and trailer plus the fixed fields.
    public static func minimumLength(_ type: UInt32) -> Int {
        switch type {
        case BlockType.sectionHeader: 28
        case BlockType.interfaceDescription: 20
        case BlockType.simplePacket: 16
        case BlockType.enhancedPacket: 32
        default: 12
        }
    }

    /// Blocks the reader reads whole (headers, interfaces, packets) are at most this long: a
    /// packet at ``CaptureReader/maximumRecordLength`` and as many bytes again of options. Other
    /// blocks are skipped while they stream past, whatever their length.
    public static let maximumBlockLength = 2 * CaptureReader.maximumRecordLength
    /// Interfaces one section may describe (each costs the reader a few bytes until the next section).
    public static let maximumInterfaces = 1 << 16

    /// One Interface Description Block as the reader keeps it.
    @usableFromInline
    struct Interface {
        /// `nil`: a link type the reader does not understand (its packets are skipped).
        @usableFromInline var linkType: CaptureLinkType?
        @usableFromInline var rawLinkType: UInt32
        /// 0: no limit.
        @usableFromInline var snapLength: UInt32
        @usableFromInline var resolution: TimestampResolution
        @usableFromInline var offsetSeconds: Int64
    }
}

/// A pcapng interface's timestamp unit (if_tsresol): 10^-n or 2^-n seconds.
@frozen
public struct TimestampResolution: Hashable, Sendable {
    /// The option's byte: bit 7 clear, 10^-n seconds; set, 2^-n; n = the low 7 bits.
    public var rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Microseconds, the default when the option is absent.
    public static let microseconds = TimestampResolution(rawValue: 6)

    /// Splits a 64-bit count of units into whole seconds and nanoseconds (rounded down) without
    /// overflow for any count and any n (0 to 127), then adds `offsetSeconds`. Seconds past
    /// Int64 (only with a 1 s unit) are held at its limits, which print as out of range.
    @inlinable
    public func timestamp(_ ticks: UInt64, offsetSeconds: Int64 = 0) -> CaptureTimestamp {
        let n = Int(rawValue & 0x7F)
        let seconds: UInt64
        let nanoseconds: UInt64
        if rawValue & 0x80 == 0 {
            // 10^19 is the largest power of ten in a UInt64; any count is below 10^20.
            if n <= 19 {
                let unit = Self.powerOfTen(n)
                seconds = ticks / unit
                let remainder = ticks % unit
                nanoseconds = n <= 9 ? remainder * Self.powerOfTen(9 - n) : remainder / Self.powerOfTen(n - 9)
            } else {
                seconds = 0
                nanoseconds = n - 9 <= 19 ? ticks / Self.powerOfTen(n - 9) : 0
            }
        } else {
            seconds = n >= 64 ? 0 : ticks >> UInt64(n)
            let remainder = n >= 64 ? ticks : ticks & ((1 << UInt64(n)) &- 1)
            // remainder · 10^9 / 2^n in 128 bits: the product needs up to 94.
            let (high, low) = remainder.multipliedFullWidth(by: 1_000_000_000)
            if n == 0 {
                nanoseconds = 0
            } else if n < 64 {
                nanoseconds = high << UInt64(64 - n) | low >> UInt64(n)
            } else {
                nanoseconds = n < 128 ? high >> UInt64(n - 64) : 0
            }
        }
        let (total, overflow) = Int64(clamping: seconds).addingReportingOverflow(offsetSeconds)
        let unixSeconds = overflow ? (offsetSeconds < 0 ? Int64.min : Int64.max) : total
        return CaptureTimestamp(unixSeconds: unixSeconds, nanosecondOfSecond: Int32(nanoseconds))
    }

    @inlinable
    static func powerOfTen(_ n: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<n { p &*= 10 }
        return p
    }
}
