// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

extension BeaconProfile {
    /// A random static address that depends only on the beacon's identity, so a profile without
    /// `address:` advertises from the same address on every run and every machine.
    ///
    /// Algorithm (documented in docs/PROFILES.md; changing it changes every derived address):
    /// 1. FNV-1a 64 (offset basis 0xCBF29CE484222325, prime 0x100000001B3) over the 20 identity
    ///    bytes: the UUID's 16 bytes in on-air (big-endian) order, then major and minor, each
    ///    big-endian.
    /// 2. Keep the low 46 bits. If they are all 0, use 1; if all 1, clear the lowest bit — a
    ///    static address may be neither (Core Vol 6 Part B §1.3.2.1).
    /// 3. Set the two most significant of the 48 bits to 11 (random static).
    ///
    /// Other formats hash, after one byte naming the format (so an AltBeacon whose ID spells an
    /// iBeacon's identity gets another address): an AltBeacon's 20 ID bytes then its manufacturer
    /// (format byte 0x01); an Eddystone-UID's namespace and instance (0x02); an Eddystone-URL's
    /// scheme and encoded URL (0x03). iBeacon addresses stay as they always were.
    public static func derivedAddress(for beacon: IBeacon) -> BluetoothAddress {
        derivedAddress(for: .iBeacon(beacon))
    }

    /// For deliberately non-conforming data (``rawData``): format byte 0x05, then the data, so
    /// a broken variant of a beacon gets another address than the beacon itself.
    public static func derivedAddress(forRaw data: AdvertisingPayload) -> BluetoothAddress {
        finish(hash([0x05] + Array(data)))
    }

    public static func derivedAddress(for beacon: AnyBeacon) -> BluetoothAddress {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        func mix(_ value: UInt64, bytes: Int) {
            for k in stride(from: bytes - 1, through: 0, by: -1) { mix(UInt8(truncatingIfNeeded: value >> UInt64(k * 8))) }
        }
        switch beacon.key {
        case .iBeacon(let i)?:
            for byte in i.uuid.bytes { mix(byte) }
            mix(UInt64(i.major), bytes: 2); mix(UInt64(i.minor), bytes: 2)
        case .altBeacon(let manufacturer, let id)?:
            mix(0x01)
            for byte in id.prefix.bytes { mix(byte) }
            mix(UInt64(id.suffix), bytes: 4); mix(UInt64(manufacturer), bytes: 2)
        case .eddystoneUID(let namespace, let instance)?:
            mix(0x02)
            mix(namespace.high, bytes: 8); mix(UInt64(namespace.low), bytes: 2); mix(instance.value, bytes: 6)
        case .eddystoneURL(let scheme, let encoded)?:
            mix(0x03); mix(scheme)
            for byte in encoded { mix(byte) }
        case nil:
            mix(0x04)  // a TLM frame alone: no identity, one fixed address
        }

        return finish(hash)
    }

    /// FNV-1a 64 over `bytes`.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// Steps 2 and 3: a random static address from a hash.
    static func finish(_ hash: UInt64) -> BluetoothAddress {
        let low46: UInt64 = (1 << 46) - 1
        var rest = hash & low46
        if rest == 0 { rest = 1 }
        if rest == low46 { rest = low46 - 1 }
        return BluetoothAddress(0b11 << 46 | rest)
    }
}
