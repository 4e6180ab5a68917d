// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

@Suite struct BeaconUUIDTests {
    static let canonical = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let value = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)

    @Test(arguments: [
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
        "e2c56db5-dffb-48d2-b060-d0f5a71096e0",
        "E2c56Db5-dFfB-48d2-B060-d0F5a71096E0",
        "E2C56DB5DFFB48D2B060D0F5A71096E0",
        "e2c56db5dffb48d2b060d0f5a71096e0",
    ])
    func parsesCanonicalAnd32HexInAnyCase(_ text: String) {
        #expect(BeaconUUID(text) == Self.value)
        #expect(BeaconUUID(Substring(text)) == Self.value)
    }

    @Test(arguments: [
        "",
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E",  // 35 characters
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E00",  // 37 characters
        "E2C56DB5DFFB48D2B060D0F5A71096E",  // 31 digits
        "E2C56DB5DFFB48D2B060D0F5A71096E00",  // 33 digits
        "E2C56DB5D-FFB-48D2-B060-D0F5A71096E0",  // first hyphen one place late
        "E2C56DB-5DFFB-48D2-B060-D0F5A71096E0",  // first hyphen one place early
        "E2C56DB5-DFFB48D2-B060-D0F5A71096E0-",  // hyphen moved to the end
        "E2C56DB5-DFFB-48D2-B060D-0F5A71096E0",  // last hyphen misplaced
        "E2C56DB5DFFB-48D2-B060-D0F5A71096E0",  // 35 with one hyphen missing
        "E2C56DB5-DFFB-48D2-B060-D0F5A710-6E0",  // hyphen in place of a digit
        "E2C56DB5:DFFB:48D2:B060:D0F5A71096E0",  // other separators
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096EG",  // non-hex
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E ",  // trailing space
        " E2C56DB5DFFB48D2B060D0F5A71096E0",
        "0xE2C56DB5DFFB48D2B060D0F5A71096",  // 0x prefix (32 characters)
        "{E2C56DB5-DFFB-48D2-B060-D0F5A71096E0}",
        "{E2C56DB5-DFFB-48D2-B060-D0F5A71096}",  // braces around 34 characters: 36 in all
        "urn:uuid:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096É",  // 36 UTF-8 bytes, one character not ASCII
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0000",
        "E2C56DB5DFFB48D2B060D0F5A71096E0\u{0}\u{0}\u{0}\u{0}",  // 36 characters, no hyphens
    ])
    func rejects(_ text: String) {
        #expect(BeaconUUID(text) == nil)
    }

    @Test func printsCanonicalUpperCase() {
        #expect(Self.value.description == Self.canonical)
        #expect(BeaconUUID(high: 0, low: 0).description == "00000000-0000-0000-0000-000000000000")
        #expect(BeaconUUID(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10).description
            == "01020304-0506-0708-090A-0B0C0D0E0F10")
        #expect(BeaconUUID("abcdefab-cdef-abcd-efab-cdefabcdefab")?.description == "ABCDEFAB-CDEF-ABCD-EFAB-CDEFABCDEFAB")
    }

    @Test func bytesAreBigEndian() throws {
        let expected: [UInt8] = [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
        #expect(Self.value.bytes == expected)
        #expect(BeaconUUID(bytes: expected) == Self.value)
        #expect(BeaconUUID(bytes: expected[...]) == Self.value)
        #expect(BeaconUUID(bytes: expected.dropLast()) == nil)
        #expect(BeaconUUID(bytes: expected + [0]) == nil)
        expected.withUnsafeBytes { #expect(BeaconUUID(bigEndianBytes: $0) == Self.value) }
        // bigEndianBytes reads the first 16 of a longer buffer.
        (expected + [0xFF]).withUnsafeBytes { #expect(BeaconUUID(bigEndianBytes: $0) == Self.value) }
    }

    @Test func writesAtAnOffsetWithoutTouchingNeighbours() {
        var buffer = [UInt8](repeating: 0xAA, count: 19)
        buffer.withUnsafeMutableBytes { Self.value.write(to: $0, at: 1) }  // unaligned on purpose
        #expect(buffer.first == 0xAA)
        #expect(Array(buffer[1..<17]) == Self.value.bytes)
        #expect(Array(buffer[17...]) == [0xAA, 0xAA])
    }

    @Test func ordersByBytes() throws {
        let a = try #require(BeaconUUID("00000000-0000-0000-FFFF-FFFFFFFFFFFF"))
        let b = try #require(BeaconUUID("00000000-0000-0001-0000-000000000000"))
        let c = try #require(BeaconUUID("80000000-0000-0000-0000-000000000000"))
        #expect(a < b && b < c && !(c < a))
        #expect([c, a, b].sorted() == [a, b, c])
    }
}
