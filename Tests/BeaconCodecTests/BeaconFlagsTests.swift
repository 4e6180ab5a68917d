// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

@Suite struct BeaconFlagsTests {
    @Test func bytesAreTheSpecValues() {
        // 0x06 = LE General Discoverable (bit 1) | BR/EDR Not Supported (bit 2);
        // 0x1A = LE General Discoverable (bit 1) | simultaneous LE and BR/EDR, controller (bit 3) and host (bit 4).
        #expect(BeaconFlags.generalDiscoverable.byte == 0b0000_0110)
        #expect(BeaconFlags.generalDiscoverableSimultaneous.byte == 0b0001_1010)
        #expect(BeaconFlags.none.byte == nil)
        // The options are exactly these three: each spec value once, and none.
        #expect(Set(BeaconFlags.allCases.map(\.byte)) == [0x06, 0x1A, nil])
        #expect(BeaconFlags.allCases.count == Set(BeaconFlags.allCases.map(\.byte)).count, "an option listed twice")
    }

    @Test(arguments: BeaconFlags.allCases)
    func roundTrips(_ flags: BeaconFlags) {
        #expect(BeaconFlags(byte: flags.byte) == flags)
        #expect(BeaconFlags(text: flags.description) == flags)
    }

    @Test func refusesOtherBytes() {
        for byte in UInt8.min...UInt8.max where byte != 0x06 && byte != 0x1A {
            #expect(BeaconFlags(byte: byte) == nil, "0x\(Hex.string([byte]))")
        }
    }

    @Test func parsesTheDocumentedSpellings() {
        for text in ["0x06", "0X06", "06", "6"] { #expect(BeaconFlags(text: text) == .generalDiscoverable, "\(text)") }
        for text in ["0x1A", "0x1a", "1A", "1a", "26"] {
            #expect(BeaconFlags(text: text) == .generalDiscoverableSimultaneous, "\(text)")
        }
        for text in ["none", "NONE", "no", "off", "false"] { #expect(BeaconFlags(text: text) == BeaconFlags.none, "\(text)") }
        for text in ["", "0x02", "2", "1B", "0x", "yes", " 0x06", "0x006"] { #expect(BeaconFlags(text: text) == nil, "\(text)") }
    }

    @Test func printsAsProfilesSpellIt() {
        #expect(BeaconFlags.generalDiscoverable.description == "0x06")
        #expect(BeaconFlags.generalDiscoverableSimultaneous.description == "0x1A")
        #expect(BeaconFlags.none.description == "none")
    }

    @Test func encodedSizeCountsTheFlagsStructure() {
        #expect(IBeacon.encodedSize(flags: .generalDiscoverable) == 30)
        #expect(IBeacon.encodedSize(flags: .generalDiscoverableSimultaneous) == 30)
        #expect(IBeacon.encodedSize(flags: .none) == 27)
    }
}
