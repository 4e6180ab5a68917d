// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Foundation
import HCI
import Testing
import TestSupport

/// pcapng files built block by block (``PcapngFiles``): both byte orders, several sections and
/// interfaces, timestamp resolutions, Simple Packet Blocks, blocks to skip, and each way a block can
/// be malformed, refused with its byte offset.
@Suite struct PcapngReaderTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let payload = HCIBytes.iBeaconPayload(IBeacon(uuid: uuid, major: 1, minor: 2, measuredPower: -59))
    static let address = BluetoothAddress(0xC0_11_22_33_44_55)
    static let report = HCIBytes.advertisingReport([(address, 1, payload, -60)])
    static let reset: [UInt8] = [0x03, 0x0C, 0x00]

    /// One section: interfaces 201 (direction header) at nanoseconds, 254 (monitor) at 2^-20 s with
    /// a one-hour offset; a report, a command, a Simple Packet Block, a Name Resolution Block between.
    static func section(_ w: PcapngFiles) -> [UInt8] {
        w.sectionHeader()
            + w.interface(linkType: 201, resolution: 9)
            + w.nameResolution()
            + w.interface(linkType: 254, resolution: 0x80 | 20, offsetSeconds: 3600)
            + w.enhancedPacket(interface: 0, ticks: 1_700_000_000_123_456_789, data: CaptureFiles.be32(1) + [0x04] + report)
            // Monitor header: index 3, opcode 2 (command).
            + w.enhancedPacket(interface: 1, ticks: (1_700_000_000 << 20) + (1 << 19), data: [0x00, 0x03, 0x00, 0x02] + reset)
            + w.simplePacket(data: CaptureFiles.be32(0) + [0x01] + reset)
    }

    @Test(arguments: [false, true])
    func oneSectionInEitherByteOrder(bigEndian: Bool) throws {
        let path = try CaptureFiles.write(Self.section(PcapngFiles(bigEndian: bigEndian)), name: "one.pcapng")
        let result = try readAll(path)
        #expect(result.format == .pcapng)
        #expect(result.skipped == 0)
        try #require(result.packets.count == 3)
        #expect(result.packets[0].0 == .hci(.event) && result.packets[0].1 == .received && result.packets[0].4 == Self.report)
        #expect(result.packets[0].3 == 1_700_000_000_123_456_789)
        #expect(result.packets[1].0 == .hci(.command) && result.packets[1].2 == 3 && result.packets[1].4 == Self.reset)
        #expect(result.packets[1].3 == Int64((1_700_000_000 + 3600) * 1_000_000_000 + 500_000_000))
        // The Simple Packet Block: interface 0, no timestamp (the epoch).
        #expect(result.packets[2].0 == .hci(.command) && result.packets[2].1 == .sent && result.packets[2].3 == 0)
        let found = try CaptureBeaconScan.sightings(path: path)
        #expect(found.map(\.source) == [.report])
        #expect(found.first?.beacon.iBeacon?.minor == 2 && found.first?.address == Self.address)
        // Every block straddles reads.
        for chunk in [1, 5, 64] {
            let small = try readAll(path, chunkSize: chunk)
            #expect(small.packets.map(\.4) == result.packets.map(\.4) && small.packets.map(\.3) == result.packets.map(\.3))
        }
    }

    /// `cat little.pcapng big.pcapng`: each section has its own byte order and interfaces (the
    /// second section's interface 0 is an H4 one); packets are numbered across the file.
    @Test func sectionsOfBothByteOrdersInOneFile() throws {
        let le = PcapngFiles(bigEndian: false), be = PcapngFiles(bigEndian: true)
        let second = be.sectionHeader() + be.interface(linkType: 187)
            + be.enhancedPacket(interface: 0, ticks: 42, data: [0x04] + Self.report)
        let path = try CaptureFiles.write(Self.section(le) + second + Self.section(be))
        let result = try readAll(path)
        #expect(result.packets.count == 7)
        #expect(result.packets[3].0 == .hci(.event) && result.packets[3].1 == .unknown && result.packets[3].3 == 42_000)
        let found = try CaptureBeaconScan.sightings(path: path)
        #expect(found.map(\.recordNumber) == [1, 4, 5])
    }

    /// Interfaces of link types the reader does not know are skipped among known ones; a file of only
    /// those is refused with the link type, as pcap is.
    @Test func unknownLinkTypes() throws {
        let w = PcapngFiles(bigEndian: false)
        let ethernet = w.interface(linkType: 1)
        let mixed = w.sectionHeader() + ethernet + w.interface(linkType: 187)
            + w.enhancedPacket(interface: 0, ticks: 1, data: [UInt8](repeating: 0xFF, count: 60))
            + w.enhancedPacket(interface: 1, ticks: 2, data: [0x04] + Self.report)
        let result = try readAll(try CaptureFiles.write(mixed))
        #expect(result.packets.count == 1 && result.skipped == 1)
        #expect(result.packets.first?.2 == 1, "the interface number is the controller index")
        let only = try CaptureFiles.write(w.sectionHeader() + ethernet + w.enhancedPacket(interface: 0, ticks: 1, data: [1, 2, 3, 4]))
        #expect(throws: CaptureError.unsupportedLinkType(format: "pcapng", value: 1)) { _ = try readAll(only) }
    }

    /// if_tsresol in powers of ten and two, extremes included: rounded down, never a trap.
    @Test func timestampResolutions() {
        func t(_ raw: UInt8, _ ticks: UInt64, offset: Int64 = 0) -> CaptureTimestamp {
            TimestampResolution(rawValue: raw).timestamp(ticks, offsetSeconds: offset)
        }
        #expect(t(6, 1_500_000) == CaptureTimestamp(unixSeconds: 1, nanosecondOfSecond: 500_000_000))
        #expect(t(0, 7) == CaptureTimestamp(unixSeconds: 7, nanosecondOfSecond: 0))
        #expect(t(12, 1_000_000_000_123_456) == CaptureTimestamp(unixSeconds: 1000, nanosecondOfSecond: 123))
        #expect(t(19, UInt64.max) == CaptureTimestamp(unixSeconds: 1, nanosecondOfSecond: 844_674_407))
        #expect(t(25, UInt64.max) == CaptureTimestamp(unixSeconds: 0, nanosecondOfSecond: 1_844))
        #expect(t(127, UInt64.max) == CaptureTimestamp(unixSeconds: 0, nanosecondOfSecond: 0))
        #expect(t(0x80 | 1, 3) == CaptureTimestamp(unixSeconds: 1, nanosecondOfSecond: 500_000_000))
        #expect(t(0x80 | 30, (5 << 30) + (1 << 28)) == CaptureTimestamp(unixSeconds: 5, nanosecondOfSecond: 250_000_000))
        #expect(t(0x80 | 63, UInt64.max) == CaptureTimestamp(unixSeconds: 1, nanosecondOfSecond: 999_999_999))
        #expect(t(0x80 | 64, UInt64.max) == CaptureTimestamp(unixSeconds: 0, nanosecondOfSecond: 999_999_999))
        #expect(t(0x80 | 127, UInt64.max) == CaptureTimestamp(unixSeconds: 0, nanosecondOfSecond: 0))
        #expect(t(0x80, 9) == CaptureTimestamp(unixSeconds: 9, nanosecondOfSecond: 0))
        #expect(t(0, UInt64.max).unixSeconds == Int64.max)
        #expect(t(6, 0, offset: -5) == CaptureTimestamp(unixSeconds: -5, nanosecondOfSecond: 0))
        #expect(t(0, UInt64.max, offset: 1).unixSeconds == Int64.max)
        #expect(t(0, 0, offset: Int64.min).unixSeconds == Int64.min)
    }

    /// Each malformed block is refused with its byte offset (the second section starts at byte
    /// `base`), and `beacon decode --capture` says so with exit status 1.
    @Test func malformedBlocksAreRefusedWithTheirOffset() throws {
        let w = PcapngFiles(bigEndian: true)
        let head = w.sectionHeader() + w.interface(linkType: 187)
        let good = w.enhancedPacket(interface: 0, ticks: 1, data: [0x01] + Self.reset)
        let base = head.count + good.count
        func withTotal(_ block: [UInt8], _ total: UInt32, trailing: UInt32? = nil) -> [UInt8] {
            var b = block
            b.replaceSubrange(4..<8, with: w.u32(total))
            if let trailing { b.replaceSubrange((b.count - 4)..<b.count, with: w.u32(trailing)) }
            return b
        }
        let cases: [([UInt8], CaptureError)] = [
            (withTotal(good, 8), .malformedBlock(fileOffset: base, blockType: 6, problem: .totalLengthTooSmall(length: 8, minimum: 32))),
            (withTotal(good, UInt32(good.count + 2)),
             .malformedBlock(fileOffset: base, blockType: 6, problem: .totalLengthNotMultipleOfFour(length: UInt32(good.count + 2)))),
            (withTotal(good, UInt32(good.count), trailing: 999),
             .malformedBlock(fileOffset: base, blockType: 6, problem: .trailingLengthMismatch(leading: UInt32(good.count), trailing: 999))),
            (Array(good.dropLast(4)), .truncatedRecord(fileOffset: base, needed: good.count, available: good.count - 4)),
            (w.enhancedPacket(interface: 5, ticks: 1, data: [0x01] + Self.reset),
             .malformedBlock(fileOffset: base, blockType: 6, problem: .unknownInterface(id: 5, described: 1))),
            (withTotal(w.nameResolution(), 0x7FFF_FFF0) + [UInt8](repeating: 0, count: 100),
             .truncatedRecord(fileOffset: base, needed: 0x7FFF_FFF0, available: 128)),
            (withTotal(w.nameResolution(), UInt32(w.nameResolution().count), trailing: 12),
             .malformedBlock(fileOffset: base, blockType: 4, problem: .trailingLengthMismatch(leading: 28, trailing: 12))),
            (withTotal(good, 1 << 30), .malformedBlock(fileOffset: base, blockType: 6, problem: .tooLarge(length: 1 << 30, limit: 1 << 18))),
            (w.sectionHeader(major: 2), .malformedBlock(fileOffset: base, blockType: 0x0A0D_0D0A, problem: .unsupportedVersion(major: 2, minor: 0))),
            ([0x0A, 0x0D, 0x0D, 0x0A, 0, 0, 0, 28, 1, 2, 3, 4],
             .malformedBlock(fileOffset: base, blockType: 0x0A0D_0D0A, problem: .unknownByteOrder(magic: 0x0102_0304))),
            (w.block(6, w.u32(0) + w.u32(0) + w.u32(0) + w.u32(100) + w.u32(100) + [0x01] + Self.reset),
             .malformedBlock(fileOffset: base, blockType: 6, problem: .capturedLengthPastBlock(captured: 100, room: 4))),
            (w.block(1, w.u16(187) + w.u16(0) + w.u32(0) + w.u16(9) + w.u16(40)),
             .malformedBlock(fileOffset: base, blockType: 1, problem: .optionPastBlock(code: 9, length: 40))),
            (w.block(1, w.u16(187) + w.u16(0) + w.u32(0) + w.option(9, [6, 6])),
             .malformedBlock(fileOffset: base, blockType: 1, problem: .optionLength(code: 9, length: 2, expected: 1))),
        ]
        for (bad, error) in cases {
            let path = try CaptureFiles.write(head + good + bad)
            for chunk in [CaptureReader.defaultChunkSize, 3] {
                var reader = try CaptureReader(path: path, chunkSize: chunk)
                #expect(try reader.nextPacket() != nil)
                #expect(throws: error) { _ = try reader.nextPacket() }
            }
        }
        let path = try CaptureFiles.write(head + good + cases[2].0)
        let run = try Program.run(try Executables.beacon.get(), ["decode", "--capture", path, "--json"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the pcapng Enhanced Packet Block at byte \(base) is malformed"), "\(run.stderr)")
    }

    /// A Simple Packet Block: cut to the interface's snap length; one before any interface is refused.
    @Test func simplePacketBlocks() throws {
        let w = PcapngFiles(bigEndian: false)
        let cut = try readAll(try CaptureFiles.write(w.sectionHeader() + w.interface(linkType: 187, snapLength: 3)
            + w.simplePacket(data: [0x01] + Self.reset + [0xEE], originalLength: 100)))
        #expect(cut.packets.map(\.4) == [[0x03, 0x0C]])
        let orphan = try CaptureFiles.write(w.sectionHeader() + w.simplePacket(data: [0x01] + Self.reset))
        #expect(throws: CaptureError.malformedBlock(fileOffset: 28, blockType: 3, problem: .unknownInterface(id: 0, described: 0))) {
            _ = try readAll(orphan)
        }
    }

    /// A file that is none of the three formats: the message names all three; a pcapng through a
    /// pipe reads as from the file.
    @Test func theCommandLineNamesEveryFormatAndReadsPcapngFromAPipe() throws {
        let beacon = try Executables.beacon.get()
        let text = try CaptureFiles.write(Array("not a capture, not even close".utf8))
        let refused = try Program.run(beacon, ["decode", "--capture", text])
        #expect(refused.status == 1)
        for name in ["btsnoop", "pcap ", "pcapng"] { #expect(refused.stderr.contains(name), "\(refused.stderr)") }
        let path = try CaptureFiles.write(Self.section(PcapngFiles(bigEndian: true)), name: "piped.pcapng")
        let fromFile = try Program.run(beacon, ["decode", "--capture", path, "--json"])
        let fromPipe = try Program.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "cat \"$1\" | \"$0\" decode --capture - --json", beacon.path, path])
        #expect(fromFile.status == 0 && fromFile.stdout.contains(Self.uuid.description) && fromFile.stderr.contains("of pcapng"), "\(fromFile)")
        #expect(fromPipe.status == 0 && fromPipe.stdout == fromFile.stdout, "\(fromPipe)")
    }
}
