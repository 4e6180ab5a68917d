// SPDX-License-Identifier: GPL-2.0-or-later

import BeaconCodec

/// Builds pcapng files block by block from the format's definition (draft-ietf-opsawg-pcapng), in
/// either byte order, so the tests check the reader against the layout and tshark checks the
/// writer.
struct PcapngFiles {
    var bigEndian: Bool

    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] { bigEndian ? CaptureFiles.be32(v) : CaptureFiles.le32(v) }
    func u64(_ v: UInt64) -> [UInt8] { bigEndian ? CaptureFiles.be64(v) : CaptureFiles.be64(v).reversed() }

    static func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4) }

    /// Type, total length, body (padded), total length.
    func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
        let body = Self.padded(body)
        return u32(type) + u32(UInt32(12 + body.count)) + body + u32(UInt32(12 + body.count))
    }

    func option(_ code: UInt16, _ value: [UInt8]) -> [UInt8] { u16(code) + u16(UInt16(value.count)) + Self.padded(value) }
    var endOfOptions: [UInt8] { u16(0) + u16(0) }

    /// Byte-order magic, version 1.0, section length unknown (-1).
    func sectionHeader(major: UInt16 = 1) -> [UInt8] {
        block(0x0A0D_0D0A, u32(0x1A2B_3C4D) + u16(major) + u16(0) + u64(UInt64.max))
    }

    func interface(linkType: UInt16, snapLength: UInt32 = 0, resolution: UInt8? = nil, offsetSeconds: Int64? = nil) -> [UInt8] {
        var options: [UInt8] = option(2, Array("hci0".utf8))  // if_name, to be stepped over
        if let resolution { options += option(9, [resolution]) }
        if let offsetSeconds { options += option(14, u64(UInt64(bitPattern: offsetSeconds))) }
        return block(1, u16(linkType) + u16(0) + u32(snapLength) + options + endOfOptions)
    }

    func enhancedPacket(interface: UInt32, ticks: UInt64, data: [UInt8], originalLength: Int? = nil) -> [UInt8] {
        block(6, u32(interface) + u32(UInt32(ticks >> 32)) + u32(UInt32(ticks & 0xFFFF_FFFF)) + u32(UInt32(data.count))
            + u32(UInt32(originalLength ?? data.count)) + Self.padded(data) + option(1, Array("a comment".utf8)) + endOfOptions)
    }

    func simplePacket(data: [UInt8], originalLength: Int? = nil) -> [UInt8] {
        block(3, u32(UInt32(originalLength ?? data.count)) + data)
    }

    /// A Name Resolution Block (type 4): something the reader skips.
    func nameResolution() -> [UInt8] { block(4, u16(1) + u16(8) + [192, 168, 0, 1] + Array("pi\0\0".utf8) + endOfOptions) }

    /// The Section Header, Interface Description and Enhanced Packet Blocks of a little-endian
    /// pcapng (as editcap writes it) rewritten in this writer's byte order: fields by the layout,
    /// packet data as is, options other than if_tsresol and if_tsoffset left out.
    func rewrite(littleEndian file: [UInt8]) -> [UInt8]? {
        let le = PcapngFiles(bigEndian: false)
        func read32(_ i: Int) -> UInt32 { UInt32(le.value(file, i, 4)) }
        var out: [UInt8] = []
        var i = 0
        while i + 12 <= file.count {
            let type = read32(i)
            let total = Int(read32(i + 4))
            guard total >= 12, i + total <= file.count else { return nil }
            switch type {
            case 0x0A0D_0D0A:
                guard read32(i + 8) == 0x1A2B_3C4D else { return nil }
                out += sectionHeader()
            case 1:
                var resolution: UInt8? = nil
                var offset: Int64? = nil
                var o = i + 16
                while o + 4 <= i + total - 4 {
                    let code = le.value(file, o, 2), length = Int(le.value(file, o + 2, 2))
                    if code == 0 { break }
                    if code == 9 { resolution = file[o + 4] }
                    if code == 14 { offset = Int64(bitPattern: le.value(file, o + 4, 8)) }
                    o += 4 + (length + 3) / 4 * 4
                }
                out += interface(linkType: UInt16(le.value(file, i + 8, 2)), snapLength: read32(i + 12), resolution: resolution,
                                 offsetSeconds: offset)
            case 6:
                let captured = Int(read32(i + 20))
                out += enhancedPacket(interface: read32(i + 8), ticks: UInt64(read32(i + 12)) << 32 | UInt64(read32(i + 16)),
                                      data: Array(file[(i + 28)..<(i + 28 + captured)]), originalLength: Int(read32(i + 24)))
            default:
                break
            }
            i += total
        }
        return out
    }

    /// A `size`-byte unsigned integer at `i` in this writer's byte order.
    func value(_ bytes: [UInt8], _ i: Int, _ size: Int) -> UInt64 {
        let slice = bytes[i..<(i + size)]
        return (bigEndian ? Array(slice) : slice.reversed()).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}

/// Link Layer packets as a sniffer captures them (Core Vol 6 Part B §2.3), and link type 256's
/// radio pseudo-header.
enum LinkLayerBytes {
    /// Access address 0x8E89BED6 (LSB first), header (PDU type, TxAdd), length, AdvA, data, a CRC.
    static func advertising(pduType: UInt8, randomAddress: Bool, address: BluetoothAddress, data: [UInt8]) -> [UInt8] {
        [0xD6, 0xBE, 0x89, 0x8E, pduType | (randomAddress ? 0x40 : 0), UInt8(6 + data.count)] + HCIBytes.address(address) + data
            + [0x12, 0x34, 0x56]
    }

    /// Channel 37, signal power, noise, offenses, reference access address, flags (LE, 0x0002: signal valid).
    static func radioHeader(rssi: Int8?, flags: UInt16 = 0) -> [UInt8] {
        let f = flags | (rssi == nil ? 0 : 0x0002)
        return [37, UInt8(bitPattern: rssi ?? 0), 0, 0] + [0xD6, 0xBE, 0x89, 0x8E] + [UInt8(f & 0xFF), UInt8(f >> 8)]
    }
}
