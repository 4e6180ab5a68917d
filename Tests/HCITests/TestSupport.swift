// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Hex text written in tests (spaces allowed) as bytes; traps on a typo so a bad vector is loud.
func bytes(_ text: String) -> [UInt8] {
    guard let value = Hex.bytes(text) else { fatalError("bad hex in test vector: \(text)") }
    return value
}

/// The iBeacon advertising data of Apple's example (UUID E2C56DB5-…, major 1, minor 2, −59 dBm),
/// written out by hand: flags AD, then the 26-byte manufacturer-specific AD.
let appleExampleAdvertisingData = bytes("02 01 06 1A FF 4C 00 02 15 E2C56DB5DFFB48D2B060D0F5A71096E0 0001 0002 C5")

let staticAddress = BluetoothAddress(0xC0_11_22_33_44_55)

/// SplitMix64: a seeded generator so "random" chunkings are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
