// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The byte strings every codec benchmark decodes, built once at run time (never literals the
/// optimiser could fold into the measured loop). `compare-python.sh` decodes the same bytes: keep
/// the two in step.
enum BenchmarkPayloads {
    /// Apple's AirLocate example UUID, the one most iBeacon documentation uses.
    static let uuidText = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    /// The beacon encoded and decoded throughout: major 1, minor 2, −59 dBm at 1 m.
    static var beacon: IBeacon {
        IBeacon(uuid: BeaconUUID(uuidText)!, major: 1, minor: 2, measuredPower: -59)
    }

    /// The usual 30 bytes: `02 01 06` flags, then the 27-byte Apple manufacturer structure.
    static var flagsAndBeacon30: [UInt8] {
        Array(beacon.advertisingData(flags: .generalDiscoverable))
    }

    /// The 4 bytes put before the iBeacon in ``otherThenBeacon31``: a Complete List of 16-bit
    /// Service UUIDs (AD type 0x03) holding the Battery Service, 0x180F, little-endian.
    static let serviceUUIDStructure: [UInt8] = [0x03, 0x03, 0x0F, 0x18]

    /// 31 bytes (the legacy maximum), the iBeacon after another structure: a decoder must walk
    /// past the first structure to find it.
    static var otherThenBeacon31: [UInt8] {
        serviceUUIDStructure + Array(beacon.advertisingData(flags: .none))
    }

    /// One full extended advertising fragment (254 bytes): flags, the iBeacon, then 32 Service
    /// Data structures (AD type 0x16, 16-bit UUID 0xFEAA, 3 data bytes each), 34 structures in all.
    static var extendedFragment254: [UInt8] {
        var bytes = flagsAndBeacon30
        for i in 0..<32 {
            bytes += [0x06, 0x16, 0xAA, 0xFE, UInt8(i), UInt8(i &* 7 & 0xFF), 0x00]
        }
        precondition(bytes.count == IBeaconFormat.extendedFragmentMaximum)
        return bytes
    }

    /// 31 bytes with no iBeacon, as most advertisements a scanner sees: flags, the Eddystone
    /// service UUID (0xFEAA) and an Eddystone-UID frame (service data: frame type 0x00, Tx power
    /// −25 dBm, 10-byte namespace, 6-byte instance, 2 reserved bytes).
    static var eddystoneUID31: [UInt8] {
        var bytes: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xE7]
        bytes += (0..<10).map { UInt8($0) } + (0..<6).map { UInt8(0xA0 + $0) } + [0x00, 0x00]
        precondition(bytes.count == IBeaconFormat.legacyMaximum)
        return bytes
    }

    /// Offset of the last instance byte in ``eddystoneUID31``, rewritten on every iteration.
    static let eddystoneInstanceLastByte = 28

    /// The UUID spellings the parser accepts, in rotation so no iteration parses a constant.
    static var uuidTexts: [String] {
        [uuidText, uuidText.lowercased(), "F7826DA64FA24E988024BC5B71E0893E", "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6"]
    }

    /// Offset of the minor's low byte in a payload whose iBeacon structure starts at `start`:
    /// the benchmarks rewrite it on every iteration so that each decode reads fresh input.
    static func minorLowByteOffset(beaconStart start: Int) -> Int { start + 25 }
}
