// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing

@Suite("H4 framing and stream decoding")
struct H4StreamDecoderTests {
    /// One packet of each type, hand-framed per Core Vol 4 Part A §2 and Part E §5.4.
    static let packets: [H4Packet] = [
        // < HCI Command: Reset (0x03|0x0003) plen 0
        H4Packet(type: .command, bytes: bytes("03 0C 00")),
        // > HCI Event: Command Complete (0x0e) plen 4 — Reset, Status: Success
        H4Packet(type: .event, bytes: bytes("0E 04 01 03 0C 00")),
        // > ACL Data RX: Handle 1 flags 0x02 dlen 5
        H4Packet(type: .acl, bytes: bytes("01 20 05 00 01 02 03 04 05")),
        // > SCO Data RX: Handle 1 dlen 3
        H4Packet(type: .sco, bytes: bytes("01 00 03 AA BB CC")),
        // > ISO Data RX: Handle 1 dlen 4 (the top 2 bits of the length are reserved and set here)
        H4Packet(type: .iso, bytes: bytes("01 00 04 C0 10 11 12 13")),
        // > HCI Event: LE Meta Event (0x3e) plen 6 — LE Advertising Set Terminated
        H4Packet(type: .event, bytes: bytes("3E 06 12 3C 01 00 00 05")),
        // An ACL packet whose length field needs both bytes (0x0102 = 258 octets).
        H4Packet(type: .acl, bytes: bytes("02 00 02 01") + [UInt8](repeating: 0x5A, count: 258)),
    ]

    static var stream: [UInt8] { packets.flatMap(\.h4Bytes) }

    @Test func framesWithTheIndicator() {
        #expect(Self.packets[0].h4Bytes == bytes("01 03 0C 00"))
        #expect(H4Packet(HCIReset().packet).h4Bytes == HCIReset().h4Bytes)
        #expect(H4Packet(HCIHardwareErrorEvent(hardwareCode: 1).packet).h4Bytes == bytes("04 10 01 01"))
    }

    @Test func wholeStreamAtOnce() throws {
        var decoder = H4StreamDecoder()
        #expect(try decoder.feed(Self.stream) == Self.packets)
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.offset == Self.stream.count)
    }

    @Test func oneByteAtATime() throws {
        var decoder = H4StreamDecoder()
        var out: [H4Packet] = []
        var boundaries: [Int] = []
        for (i, byte) in Self.stream.enumerated() {
            let got = try decoder.feed(CollectionOfOne(byte))
            if !got.isEmpty { boundaries.append(i + 1) }
            out += got
        }
        #expect(out == Self.packets)
        // Each packet appears exactly when its last byte arrives.
        var ends: [Int] = []
        var total = 0
        for packet in Self.packets {
            total += packet.h4Bytes.count
            ends.append(total)
        }
        #expect(boundaries == ends)
    }

    @Test(arguments: [1, 2, 3, 42, 2026])
    func randomBatchesGiveTheSamePackets(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let stream = Self.stream + Self.stream
        var decoder = H4StreamDecoder()
        var out: [H4Packet] = []
        var index = 0
        while index < stream.count {
            let size = Int.random(in: 0...40, using: &rng)
            let end = min(stream.count, index + size)
            out += try decoder.feed(stream[index..<end])
            index = end
        }
        #expect(out == Self.packets + Self.packets)
    }

    @Test func isoLengthIgnoresTheReservedBits() throws {
        var decoder = H4StreamDecoder()
        let packets = try decoder.feed(bytes("05 01 00 04 C0 10 11 12 13"))
        #expect(packets.count == 1)
        #expect(packets.first?.bytes.count == 8)
    }

    @Test func garbageAtTheFrontNamesTheByteAndOffset() {
        var decoder = H4StreamDecoder()
        let error = #expect(throws: H4DecodingError.unknownPacketIndicator(byte: 0xFF, offset: 0)) {
            try decoder.feed([0xFF, 0x04, 0x10, 0x01, 0x01])
        }
        #expect(error?.description.contains("0xFF at stream offset 0") == true)
    }

    @Test func garbageAfterPacketsReturnsThePacketsFirstThenThrows() throws {
        var decoder = H4StreamDecoder()
        let reset = bytes("01 03 0C 00")
        let packets = try decoder.feed(reset + [0x00] + bytes("04 10 01 07"))
        #expect(packets == [H4Packet(type: .command, bytes: bytes("03 0C 00"))])
        #expect(throws: H4DecodingError.unknownPacketIndicator(byte: 0x00, offset: 4)) { try decoder.feed([]) }
        // The bad byte was dropped: decoding goes on with the next packet, never spins.
        #expect(try decoder.feed([]) == [H4Packet(type: .event, bytes: bytes("10 01 07"))])
    }

    @Test func bufferIsBounded() throws {
        var decoder = H4StreamDecoder(maximumBufferedBytes: 16)
        // An ACL header announcing 65535 bytes can never complete within 16: the decoder says so
        // instead of waiting forever or growing without end.
        #expect(try decoder.feed(bytes("02 01 00 FF FF")) == [])
        #expect(throws: H4DecodingError.bufferFull(buffered: 5, incoming: 12, limit: 16)) {
            try decoder.feed([UInt8](repeating: 0, count: 12))
        }
        decoder.reset()
        #expect(decoder.bufferedByteCount == 0)
        #expect(try decoder.feed(bytes("04 10 01 01")).count == 1)
    }

    @Test func typedAccessors() throws {
        let event = H4Packet(type: .event, bytes: bytes("10 01 2A"))
        #expect(try event.eventPacket() == HCIEventPacket(code: 0x10, parameters: [0x2A]))
        #expect(try event.commandPacket() == nil)
        let command = H4Packet(type: .command, bytes: bytes("0A 20 01 01"))
        #expect(try command.commandPacket().map { try LESetAdvertisingEnable(packet: $0) } == LESetAdvertisingEnable(true))
    }

    @Test func longStreamsStayCompact() throws {
        // Many packets through one decoder: the consumed prefix is reclaimed.
        var decoder = H4StreamDecoder(maximumBufferedBytes: 64)
        let packet = bytes("04 0E 04 01 03 0C 00")
        var count = 0
        for _ in 0..<5000 { count += try decoder.feed(packet).count }
        #expect(count == 5000)
        #expect(decoder.bufferedByteCount == 0)
    }
}
