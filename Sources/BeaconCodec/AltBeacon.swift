// SPDX-License-Identifier: GPL-2.0-or-later

/// An AltBeacon (AltBeacon/spec v1.0): manufacturer-specific data of any company, marked by the
/// beacon code `BE AC`, with a 20-byte beacon ID, the reference RSSI at 1 m and a byte the
/// manufacturer reserves.
///
///     1B FF | company (LE) | BE AC | id[20] (BE) | rssi (signed) | reserved
public struct AltBeacon: Hashable, Sendable, CustomStringConvertible {
    /// The company identifier of the manufacturer (Bluetooth SIG), e.g. 0x0118 Radius Networks.
    public var manufacturerID: UInt16
    public var id: AltBeaconID
    /// Average received power at 1 m in dBm; the spec allows 0 to −127.
    public var referenceRSSI: Int8
    /// The manufacturer's own byte, passed through as it is.
    public var reserved: UInt8

    public init(manufacturerID: UInt16 = AltBeaconFormat.radiusNetworks, id: AltBeaconID, referenceRSSI: Int8 = IBeacon.defaultMeasuredPower, reserved: UInt8 = 0) {
        self.manufacturerID = manufacturerID
        self.id = id
        self.referenceRSSI = referenceRSSI
        self.reserved = reserved
    }

    public var description: String {
        "altbeacon id \(id) manufacturer 0x\(BigEndianBytes.hex(UInt64(manufacturerID), count: 2)) rssi \(referenceRSSI) dBm reserved 0x\(BigEndianBytes.hex(UInt64(reserved), count: 1))"
    }

    /// 31 bytes with flags, 28 without.
    public static func encodedSize(flags: BeaconFlags) -> Int {
        flags.structureSize + AltBeaconFormat.structureSize
    }

    public func encode(flags: BeaconFlags = .generalDiscoverable, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let size = Self.encodedSize(flags: flags)
        precondition(buffer.count >= size, "an AltBeacon payload needs \(size) bytes")
        let i = flags.write(into: buffer)
        buffer[i] = AltBeaconFormat.structureLength
        buffer[i + 1] = ADType.manufacturerSpecificData.rawValue
        buffer.storeBytes(of: manufacturerID.littleEndian, toByteOffset: i + 2, as: UInt16.self)
        buffer.storeBytes(of: AltBeaconFormat.beaconCode.bigEndian, toByteOffset: i + 4, as: UInt16.self)
        id.prefix.write(to: buffer, at: i + 6)
        buffer.storeBytes(of: id.suffix.bigEndian, toByteOffset: i + 22, as: UInt32.self)
        buffer[i + 26] = UInt8(bitPattern: referenceRSSI)
        buffer[i + 27] = reserved
        return size
    }

    /// Reads manufacturer data (after the AD type) of at least 26 bytes whose code is `BE AC`.
    static func fields(_ data: UnsafeRawBufferPointer) -> AltBeacon {
        AltBeacon(
            manufacturerID: UInt16(data[0]) | UInt16(data[1]) << 8,
            id: AltBeaconID(
                prefix: BeaconUUID(bigEndianBytes: UnsafeRawBufferPointer(rebasing: data[4..<20])),
                suffix: UInt32(BigEndianBytes.read(data, at: 20, count: 4))),
            referenceRSSI: Int8(bitPattern: data[24]),
            reserved: data[25])
    }

    /// Whether manufacturer data carries the AltBeacon code after its company identifier.
    static func isAltBeacon(_ data: UnsafeRawBufferPointer) -> Bool {
        data.count >= 4 && data[2] == 0xBE && data[3] == 0xAC
    }
}

/// The 20-byte AltBeacon beacon ID: the spec asks that the first 16 bytes identify the
/// organisation, so they are held (and printed) as a UUID; the last 4 are subdivided at will.
/// Text form: `UUID-XXXXXXXX`, or 40 hex digits with or without separators between bytes.
public struct AltBeaconID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var prefix: BeaconUUID
    public var suffix: UInt32

    public init(prefix: BeaconUUID, suffix: UInt32) {
        self.prefix = prefix
        self.suffix = suffix
    }

    public init?(_ text: some StringProtocol) {
        guard let b = BigEndianBytes.parse(text, count: 20), let uuid = BeaconUUID(bytes: b[0..<16]) else { return nil }
        self.init(prefix: uuid, suffix: UInt32(BigEndianBytes.value(b[16..<20])))
    }

    public var description: String { "\(prefix)-\(BigEndianBytes.hex(UInt64(suffix), count: 4))" }

    public static func < (a: Self, b: Self) -> Bool { (a.prefix, a.suffix) < (b.prefix, b.suffix) }
}

/// Byte-level constants of the AltBeacon format.
public enum AltBeaconFormat {
    /// `BE AC` on the air (big-endian, unlike the company identifier before it).
    public static let beaconCode: UInt16 = 0xBEAC
    /// The length byte: type 1 + company 2 + code 2 + id 20 + RSSI 1 + reserved 1.
    public static let structureLength: UInt8 = 0x1B
    /// The whole structure with its length byte.
    public static let structureSize = 28
    /// Radius Networks, the spec's author, as the Android Beacon Library defaults to.
    public static let radiusNetworks: UInt16 = 0x0118
}
