// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

@Suite struct AdvertisingPayloadTests {
    /// The 31-byte tuple as an array.
    static func array(_ s: AdvertisingPayload.Storage) -> [UInt8] {
        withUnsafeBytes(of: s) { Array($0) }
    }

    @Test func holdsUpTo31Bytes() throws {
        #expect(AdvertisingPayload.capacity == 31)
        #expect(MemoryLayout<AdvertisingPayload.Storage>.size == 31)
        #expect(AdvertisingPayload().isEmpty)
        let full = try #require(AdvertisingPayload(Array(1...31)))
        #expect(full.count == 31 && Array(full) == Array(1...31))
        #expect(AdvertisingPayload([UInt8](repeating: 1, count: 32)) == nil)
        #expect(AdvertisingPayload([UInt8]())?.count == 0)
        #expect(AdvertisingPayload([0x02, 0x01, 0x06][...])?.description == "020106")
    }

    @Test func paddedZeroFillsPastTheEnd() throws {
        let payload = try #require(AdvertisingPayload([0x02, 0x01, 0x06]))
        #expect(Self.array(payload.padded) == [0x02, 0x01, 0x06] + [UInt8](repeating: 0, count: 28))
        // Bytes a filler wrote past the count it returned are not significant, and not sent.
        let dirty = AdvertisingPayload { buffer in
            for i in 0..<buffer.count { buffer[i] = 0xEE }
            buffer[0] = 0x02; buffer[1] = 0x01; buffer[2] = 0x06
            return 3
        }
        #expect(dirty.count == 3)
        #expect(Self.array(dirty.padded) == Self.array(payload.padded))
        let full = try #require(AdvertisingPayload([UInt8](repeating: 0xAB, count: 31)))
        #expect(Self.array(full.padded) == [UInt8](repeating: 0xAB, count: 31))
    }

    @Test func equalityAndHashIgnoreBytesPastTheCount() throws {
        let clean = try #require(AdvertisingPayload([0x01, 0x02]))
        let dirty = AdvertisingPayload { buffer in
            buffer[0] = 0x01; buffer[1] = 0x02; buffer[2] = 0x99
            return 2
        }
        #expect(clean == dirty)
        #expect(clean.hashValue == dirty.hashValue)
        #expect(Set([clean, dirty]).count == 1)
        #expect(clean != AdvertisingPayload([0x01, 0x03]))
        #expect(clean != AdvertisingPayload([0x01, 0x02, 0x00]), "a trailing zero is significant")
        #expect(AdvertisingPayload() != AdvertisingPayload([0x00]))
    }

    @Test func isACollection() throws {
        let payload = try #require(AdvertisingPayload([0x0A, 0x0B, 0x0C]))
        #expect(payload.startIndex == 0 && payload.endIndex == 3)
        #expect(payload[1] == 0x0B)
        #expect(payload.reversed() == [0x0C, 0x0B, 0x0A])
        #expect(payload.description == "0A0B0C")
    }

    @Test func withUnsafeBytesSeesTheSignificantBytesAndPassesTypedErrors() throws {
        let payload = try #require(AdvertisingPayload([0x01, 0x02, 0x03]))
        #expect(payload.withUnsafeBytes { Array($0) } == [0x01, 0x02, 0x03])
        struct Marker: Error, Equatable {}
        #expect(throws: Marker()) {
            try payload.withUnsafeBytes { (_) throws(Marker) -> Int in throw Marker() }
        }
    }

    @Test func fillingPreconditionBoundsTheCount() async {
        await #expect(processExitsWith: .failure) {
            _ = AdvertisingPayload { _ in 32 }
        }
    }
}
