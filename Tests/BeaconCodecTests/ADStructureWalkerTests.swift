// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

/// A structure as plain values, so walks can be compared with `==`.
struct WalkedStructure: Equatable, CustomStringConvertible {
    var offset: Int
    var type: UInt8
    var data: [UInt8]
    var description: String { "@\(offset) \(Hex.string([type])) \(Hex.string(data))" }
}

/// Walks `bytes` to the end or the first error.
func walk(_ bytes: [UInt8]) -> (structures: [WalkedStructure], error: BeaconDecodingError?) {
    bytes.withUnsafeBytes { raw in
        var walker = ADStructureWalker(raw)
        var out: [WalkedStructure] = []
        do throws(BeaconDecodingError) {
            while let s = try walker.next() {
                out.append(WalkedStructure(offset: s.offset, type: s.type.rawValue, data: Array(s.data)))
            }
        } catch {
            return (out, error)
        }
        return (out, nil)
    }
}

@Suite struct ADStructureWalkerTests {
    static let apple = Hex.bytes("0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5")!

    @Test func walksKnownAndUnknownTypes() {
        // Flags, an unknown type 0x7F with no data, an unknown 0xE0 with two bytes, a name, padding.
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x01, 0x7F, 0x03, 0xE0, 0xAA, 0xBB, 0x02, 0x09, 0x41, 0x00, 0x00]
        let (structures, error) = walk(bytes)
        #expect(error == nil)
        #expect(structures == [
            WalkedStructure(offset: 0, type: 0x01, data: [0x06]),
            WalkedStructure(offset: 3, type: 0x7F, data: []),
            WalkedStructure(offset: 5, type: 0xE0, data: [0xAA, 0xBB]),
            WalkedStructure(offset: 9, type: 0x09, data: [0x41]),
        ])
        #expect(ADType(rawValue: 0x7F).description == "AD type 0x7F")
        #expect(ADType.manufacturerSpecificData.description == "Manufacturer Specific Data")
    }

    @Test func dataPointsIntoTheInput() throws {
        try Self.apple.withUnsafeBytes { (raw) throws in
            var walker = ADStructureWalker(raw)
            #expect(walker.position == 0)
            var count = 0
            while let s = try walker.next() {
                #expect(s.data.baseAddress == raw.baseAddress! + s.offset + 2, "structure at \(s.offset) is not copied")
                #expect(s.data.count == Int(raw[s.offset]) - 1)
                #expect(walker.position == s.offset + 1 + Int(raw[s.offset]))
                count += 1
            }
            #expect(count == 2)
            #expect(try walker.next() == nil, "stays finished")
        }
    }

    @Test func stopsForGoodAfterAnError() throws {
        // A valid flags structure, then a length byte that overruns; then nothing more is returned.
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C]
        try bytes.withUnsafeBytes { (raw) throws in
            var walker = ADStructureWalker(raw)
            #expect(try walker.next()?.offset == 0)
            #expect(throws: BeaconDecodingError(.lengthOverrun, at: 3)) { try walker.next() }
            #expect(try walker.next() == nil)
        }
        // The Sequence view stops quietly at the same place.
        bytes.withUnsafeBytes { raw in
            #expect(ADStructures(raw).map(\.offset) == [0])
        }
    }

    @Test func zeroLengthEndsTheDataAndOnlyZerosMayFollow() {
        #expect(walk([0x02, 0x01, 0x06, 0x00, 0x00, 0x00]).error == nil)
        #expect(walk([0x02, 0x01, 0x06, 0x00, 0x00, 0x01]).error == BeaconDecodingError(.zeroLengthFollowedByData, at: 3))
        #expect(walk([0x00]).structures.isEmpty)
        #expect(walk([0x00, 0x02, 0x01, 0x06]).error == BeaconDecodingError(.zeroLengthFollowedByData, at: 0))
        #expect(walk([]).structures.isEmpty && walk([]).error == nil)
    }

    /// Every prefix of a valid payload, built up a byte at a time: derived from the layout
    /// `02 01 06 | 1A FF …` (length bytes at 0 and 3).
    @Test func prefixesOfAValidPayloadFailWithTheRightError() throws {
        let full = Self.apple
        for k in 0..<full.count {
            let prefix = Array(full[..<k])
            let expected: BeaconDecodingError
            switch k {
            case 0, 3: expected = BeaconDecodingError(.noIBeacon, at: k)  // ends on a structure boundary
            case 1, 4: expected = BeaconDecodingError(.truncatedStructure, at: k - 1)  // a lone length byte
            default: expected = BeaconDecodingError(.lengthOverrun, at: k < 3 ? 0 : 3)  // a length byte claims more
            }
            #expect(throws: expected, "prefix of \(k) bytes") { try IBeacon(decoding: prefix) }
            // Lenient decoding cannot find the 27-byte structure in fewer bytes either.
            #expect(throws: BeaconDecodingError(.noIBeacon, at: k)) { try IBeacon(decoding: prefix, options: .lenient) }
        }
        #expect(throws: Never.self) { try IBeacon(decoding: full) }
    }

    /// Every prefix of every golden vector: decoding never traps, and any error lies within the data.
    @Test func prefixesOfEveryVectorNeverTrap() throws {
        let file = try GoldenVectorFile.shipped.get()
        let payloads = file.valid.map(\.bytes) + file.malformed.map(\.bytes)
        for bytes in payloads {
            for k in 0...bytes.count {
                let prefix = Array(bytes[..<k])
                for options in [BeaconDecodingOptions.strict, .strictExtended, .lenient] {
                    do throws(BeaconDecodingError) {
                        _ = try IBeacon(decoding: prefix, options: options)
                    } catch {
                        #expect((0...k).contains(error.offset), "\(Hex.string(prefix)): \(error)")
                    }
                }
                _ = walk(prefix)
            }
        }
    }

    @Test func walksA254ByteExtendedFragment() throws {
        // Flags, the iBeacon, then one 224-byte manufacturer structure (Nordic, 0x0059) to fill 254.
        let filler: [UInt8] = [0xDF, 0xFF, 0x59, 0x00] + (0..<220).map { UInt8($0) }
        let fragment = Self.apple + filler
        #expect(fragment.count == IBeaconFormat.extendedFragmentMaximum)
        let (structures, error) = walk(fragment)
        #expect(error == nil)
        #expect(structures.map(\.offset) == [0, 3, 30])
        #expect(structures.last?.data.count == 222)

        let beacon = try IBeacon(decoding: Self.apple)
        #expect(try IBeacon(decoding: fragment, options: .strictExtended) == beacon)
        #expect(throws: BeaconDecodingError(.tooLong, at: 31)) { try IBeacon(decoding: fragment) }
        #expect(throws: BeaconDecodingError(.tooLong, at: 254)) {
            try IBeacon(decoding: fragment + [0x00], options: .strictExtended)
        }
        #expect(try IBeacon(decoding: fragment + [0x00], options: .init(maximumLength: .max)) == beacon)
    }

    @Test func walksTheLongestStructure() {
        // Length 255: type plus 254 data bytes, 256 bytes in all.
        let bytes: [UInt8] = [0xFF, 0x16] + [UInt8](repeating: 0x5A, count: 254)
        let (structures, error) = walk(bytes)
        #expect(error == nil)
        #expect(structures == [WalkedStructure(offset: 0, type: 0x16, data: [UInt8](repeating: 0x5A, count: 254))])
        #expect(walk(Array(bytes.dropLast())).error == BeaconDecodingError(.lengthOverrun, at: 0))
    }
}
