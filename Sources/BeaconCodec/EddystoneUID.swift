// SPDX-License-Identifier: GPL-2.0-or-later

/// An Eddystone-UID frame (frame type 0x00): a 10-byte namespace and a 6-byte instance, with the
/// calibrated TX power at 0 m ("ranging data"). The 2 reserved bytes are sent as zeros.
public struct EddystoneUID: Hashable, Sendable, CustomStringConvertible {
    public var namespace: EddystoneNamespace
    public var instance: EddystoneInstance
    /// Received power at 0 m in dBm, a signed byte (Eddystone suggests measuring at 1 m and adding 41).
    public var txPower: Int8

    public init(namespace: EddystoneNamespace, instance: EddystoneInstance, txPower: Int8 = EddystoneFormat.defaultPowerAt0m) {
        self.namespace = namespace
        self.instance = instance
        self.txPower = txPower
    }

    public var description: String {
        "eddystone-uid namespace \(namespace) instance \(instance) power at 0 m \(txPower) dBm"
    }

    /// 31 bytes with flags, 28 without.
    public static func encodedSize(flags: BeaconFlags) -> Int {
        EddystoneFormat.encodedSize(frameSize: EddystoneFormat.uidFrameSize, flags: flags)
    }

    /// Writes `02 01 06 | 03 03 AA FE | 17 16 AA FE | 00 | tx | namespace[10] | instance[6] | 00 00`
    /// and returns the number of bytes written.
    public func encode(flags: BeaconFlags = .generalDiscoverable, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let i = EddystoneFormat.writeHeader(frameSize: EddystoneFormat.uidFrameSize, flags: flags, into: buffer)
        buffer[i] = EddystoneFormat.uidFrameType
        buffer[i + 1] = UInt8(bitPattern: txPower)
        BigEndianBytes.write(namespace.high, count: 8, to: buffer, at: i + 2)
        BigEndianBytes.write(UInt64(namespace.low), count: 2, to: buffer, at: i + 10)
        BigEndianBytes.write(instance.value, count: 6, to: buffer, at: i + 12)
        buffer[i + 18] = 0
        buffer[i + 19] = 0
        return i + EddystoneFormat.uidFrameSize
    }

    /// Reads the frame that starts at `frame[0]` (the frame type byte); the caller checked its length.
    static func fields(_ frame: UnsafeRawBufferPointer) -> EddystoneUID {
        EddystoneUID(
            namespace: EddystoneNamespace(high: BigEndianBytes.read(frame, at: 2, count: 8), low: UInt16(BigEndianBytes.read(frame, at: 10, count: 2))),
            instance: EddystoneInstance(BigEndianBytes.read(frame, at: 12, count: 6)),
            txPower: Int8(bitPattern: frame[1]))
    }
}

/// The 10-byte Eddystone-UID namespace (big-endian on the air), written as 20 hex digits.
public struct EddystoneNamespace: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bytes 0–7.
    public var high: UInt64
    /// Bytes 8–9.
    public var low: UInt16

    public init(high: UInt64, low: UInt16) {
        self.high = high
        self.low = low
    }

    /// 20 hex digits (separators between bytes allowed); `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        guard let b = BigEndianBytes.parse(text, count: 10) else { return nil }
        self.init(high: BigEndianBytes.value(b[0..<8]), low: UInt16(BigEndianBytes.value(b[8..<10])))
    }

    public var description: String { BigEndianBytes.hex(high, count: 8) + BigEndianBytes.hex(UInt64(low), count: 2) }

    public static func < (a: Self, b: Self) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

/// The 6-byte Eddystone-UID instance (big-endian on the air), written as 12 hex digits.
public struct EddystoneInstance: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The largest instance: 48 bits.
    public static let maximum: UInt64 = 0xFFFF_FFFF_FFFF
    /// 0…``maximum``.
    public let value: UInt64

    /// The low 48 bits of `value`.
    public init(_ value: UInt64) { self.value = value & Self.maximum }

    /// 12 hex digits (separators between bytes allowed); `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        guard let b = BigEndianBytes.parse(text, count: 6) else { return nil }
        self.init(BigEndianBytes.value(b[...]))
    }

    public var description: String { BigEndianBytes.hex(value, count: 6) }

    public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
}
