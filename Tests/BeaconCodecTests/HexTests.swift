// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

@Suite struct HexTests {
    @Test func printsUpperCase() {
        #expect(Hex.string([]) == "")
        #expect(Hex.string([0x00, 0x0F, 0xA0, 0xFF]) == "000FA0FF")
        #expect(Hex.string([0x02, 0x01, 0x06], separator: " ") == "02 01 06")
        #expect(Hex.string([0xAB], separator: ":") == "AB")
        #expect(Hex.string(0...255).count == 512)
    }

    @Test func parsesEveryByteInBothCases() {
        let all = Array(UInt8.min...UInt8.max)
        #expect(Hex.bytes(Hex.string(all)) == all)
        #expect(Hex.bytes(Hex.string(all).lowercased()) == all)
    }

    @Test(arguments: [
        ("020106", [0x02, 0x01, 0x06]),
        ("0x020106", [0x02, 0x01, 0x06]),
        ("0X020106", [0x02, 0x01, 0x06]),
        ("02 01 06", [0x02, 0x01, 0x06]),
        ("02:01:06", [0x02, 0x01, 0x06]),
        ("02-01_06", [0x02, 0x01, 0x06]),
        ("02\t01  06 ", [0x02, 0x01, 0x06]),
        ("aBcD", [0xAB, 0xCD]),
        ("", []),
        ("0x", []),
    ] as [(String, [UInt8])])
    func parses(_ text: String, _ expected: [UInt8]) {
        #expect(Hex.bytes(text) == expected)
    }

    @Test(arguments: ["0", "020", "0 2", "02 0 1", "0g", "zz", "0x0x02", "02,01", "02\n01", "x02", "٠٢"])
    func rejects(_ text: String) {
        #expect(Hex.bytes(text) == nil)
    }
}
