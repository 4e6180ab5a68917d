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
