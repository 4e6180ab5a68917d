// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation

/// Builds capture files byte by byte, following the formats' definitions (not our reader), so
/// the tests check the reader against the layouts rather than against itself.
enum CaptureFiles {
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    static func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }

    /// Microseconds from 0000-01-01 to 1970-01-01 (BlueZ, Wireshark).
    static let btsnoopEpoch: UInt64 = 0x00DC_DDB3_0F2F_8000

    /// `btsnoop\0`, version 1, datalink.
    static func btsnoopHeader(datalink: UInt32) -> [UInt8] {
        Array("btsnoop".utf8) + [0] + be32(1) + be32(datalink)
    }

    /// One btsnoop record: original length, included length, flags, drops, timestamp, data.
    static func btsnoopRecord(flags: UInt32, unixMicroseconds: UInt64, data: [UInt8]) -> [UInt8] {
        be32(UInt32(data.count)) + be32(UInt32(data.count)) + be32(flags) + be32(0) + be64(unixMicroseconds + btsnoopEpoch) + data
    }

    /// The pcap global header: magic, 2.4, thiszone, sigfigs, snaplen, link type.
    static func pcapHeader(bigEndian: Bool, nanoseconds: Bool, linkType: UInt32) -> [UInt8] {
        let w32 = bigEndian ? be32 : le32
        let w16: (UInt16) -> [UInt8] = { v in bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        return w32(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4) + w16(2) + w16(4) + w32(0) + w32(0) + w32(65535) + w32(linkType)
    }

    /// One pcap record: seconds, fraction (µs or ns), included length, original length, data.
    static func pcapRecord(bigEndian: Bool, seconds: UInt32, fraction: UInt32, data: [UInt8]) -> [UInt8] {
        let w32 = bigEndian ? be32 : le32
        return w32(seconds) + w32(fraction) + w32(UInt32(data.count)) + w32(UInt32(data.count)) + data
    }

    /// A fresh temporary file with `bytes`.
    static func write(_ bytes: [UInt8], name: String = "capture") throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("beacon-capture-tests-\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// HCI packets (without the H4 indicator) spelled out field by field from the Core spec.
enum HCIBytes {
    static func address(_ a: BluetoothAddress) -> [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: a.value >> (8 * UInt64($0))) } }

    static func iBeaconPayload(_ beacon: IBeacon, flags: BeaconFlags = .generalDiscoverable) -> [UInt8] {
        Array(beacon.advertisingData(flags: flags))
    }

    /// LE Meta / LE Advertising Report (§7.7.65.2) with one report per element.
    static func advertisingReport(_ reports: [(address: BluetoothAddress, addressType: UInt8, data: [UInt8], rssi: Int8)]) -> [UInt8] {
        var p: [UInt8] = [0x02, UInt8(reports.count)]
        for r in reports {
            p += [0x03, r.addressType] + address(r.address) + [UInt8(r.data.count)] + r.data + [UInt8(bitPattern: r.rssi)]
        }
        return [0x3E, UInt8(p.count)] + p
    }

    /// LE Meta / LE Extended Advertising Report (§7.7.65.13), one report.
    static func extendedAdvertisingReport(address a: BluetoothAddress, sid: UInt8, rssi: Int8, data: [UInt8]) -> [UInt8] {
        var p: [UInt8] = [0x0D, 1]
        p += [0x10, 0x00]  // Event_Type: legacy, non-connectable
        p += [0x01] + address(a)  // random
        p += [0x01, 0x00, sid, 0x7F, UInt8(bitPattern: rssi), 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 6)
        p += [UInt8(data.count)] + data
        return [0x3E, UInt8(p.count)] + p
    }

    static func command(_ opcode: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters
    }

    /// LE Set Advertising Data (0x2008): length then 31 zero-padded bytes.
    static func setAdvertisingData(_ data: [UInt8]) -> [UInt8] {
        command(0x2008, [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count))
    }

    /// LE Set Extended Advertising Data (0x2037): handle, operation complete, no fragmentation.
    static func setExtendedAdvertisingData(handle: UInt8, _ data: [UInt8]) -> [UInt8] {
        command(0x2037, [handle, 0x03, 0x01, UInt8(data.count)] + data)
    }

    static func setRandomAddress(_ a: BluetoothAddress) -> [UInt8] { command(0x2005, address(a)) }

    static func setAdvertisingSetRandomAddress(handle: UInt8, _ a: BluetoothAddress) -> [UInt8] {
        command(0x2035, [handle] + address(a))
    }
}
