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
    public static func derivedAddress(for beacon: IBeacon) -> BluetoothAddress {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        for byte in beacon.uuid.bytes { mix(byte) }
        mix(UInt8(beacon.major >> 8)); mix(UInt8(beacon.major & 0xFF))
        mix(UInt8(beacon.minor >> 8)); mix(UInt8(beacon.minor & 0xFF))

        let low46: UInt64 = (1 << 46) - 1
        var rest = hash & low46
        if rest == 0 { rest = 1 }
        if rest == low46 { rest = low46 - 1 }
        return BluetoothAddress(0b11 << 46 | rest)
    }
}
