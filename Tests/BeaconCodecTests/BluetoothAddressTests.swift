// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

@Suite struct BluetoothAddressTests {
    @Test(arguments: ["C0:11:22:33:44:55", "c0:11:22:33:44:55", "C0-11-22-33-44-55", "c0-11-22-33-44-55"])
    func parses(_ text: String) {
        #expect(BluetoothAddress(text)?.value == 0xC011_2233_4455)
        #expect(BluetoothAddress(Substring(text))?.value == 0xC011_2233_4455)
    }

    @Test(arguments: [
        "",
        "C0:11:22:33:44",  // five groups
        "C0:11:22:33:44:55:66",  // seven groups
        "C0:11:22:33:44:55:",  // trailing separator
        ":C0:11:22:33:44:55",  // leading separator
        "C0::11:22:33:44:55",  // empty group
        "C0:11:22:33:44:5",  // one-digit group
        "C0:11:22:33:44:555",
        "C0:1:122:33:44:55",
        "C0:+1:22:33:44:55",  // a sign is not a digit
        "C0:-1:22:33:44:55",
        "C0:11:22:33:44:5G",
        "C0 11 22 33 44 55",
        "C0:11-22:33:44:55",  // mixed separators
        "C01122334455",
        " C0:11:22:33:44:55",
        "C0:11:22:33:44:55 ",
    ])
    func rejects(_ text: String) {
        #expect(BluetoothAddress(text) == nil)
    }

    @Test func printsMostSignificantByteFirst() {
        #expect(BluetoothAddress(0xC011_2233_4455).description == "C0:11:22:33:44:55")
        #expect(BluetoothAddress(0x0A).description == "00:00:00:00:00:0A")
        #expect(BluetoothAddress(0xFFFF_FFFF_FFFF).description == "FF:FF:FF:FF:FF:FF")
        #expect(BluetoothAddress("ab:cd:ef:01:23:45")?.description == "AB:CD:EF:01:23:45")
    }

    @Test func travelsLeastSignificantByteFirst() {
        let address = BluetoothAddress(0xC011_2233_4455)
        let b = address.littleEndianBytes
        #expect([b.0, b.1, b.2, b.3, b.4, b.5] == [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])

        var buffer = [UInt8](repeating: 0xEE, count: 8)
        buffer.withUnsafeMutableBytes { address.write(to: $0, at: 1) }
        #expect(buffer == [0xEE, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0xEE])
        buffer.withUnsafeBytes { raw in
            #expect(BluetoothAddress(littleEndianBytes: UnsafeRawBufferPointer(rebasing: raw[1...])) == address)
        }
    }

    /// Core Vol 6 Part B §1.3.2.1: a static random address has its two top bits set, and the
    /// other 46 bits are neither all zero nor all one.
    @Test(arguments: [
        (0xC000_0000_0001, true),  // smallest
        (0xFFFF_FFFF_FFFE, true),  // largest
        (0xC011_2233_4455, true),
        (0xE000_0000_0000, true),  // rest has one bit set
        (0xC000_0000_0000, false),  // rest all zero
        (0xFFFF_FFFF_FFFF, false),  // rest all one
        (0x8000_0000_0001, false),  // top bits 10: resolvable private
        (0x4000_0000_0001, false),  // top bits 01
        (0x0011_2233_4455, false),  // top bits 00: non-resolvable private
        (0xBFFF_FFFF_FFFF, false),
    ] as [(UInt64, Bool)])
    func staticRandom(_ value: UInt64, _ expected: Bool) {
        #expect(BluetoothAddress(value).isStaticRandom == expected)
    }

    @Test func ordersByValue() {
        #expect(BluetoothAddress(1) < BluetoothAddress(2))
        #expect(!(BluetoothAddress(0xC0_0000_0000) < BluetoothAddress(0xC0_0000_0000)))
    }
}
