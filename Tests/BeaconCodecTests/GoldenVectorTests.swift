// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

/// The file itself: it loads, and it holds what the other golden tests rely on (they would pass
/// vacuously over an empty file).
@Suite struct GoldenVectorFileTests {
    @Test func loadsWithEnoughVectorsOfEveryKind() throws {
        let file = try GoldenVectorFile.shipped.get()
        #expect(file.valid.count >= 15)
        #expect(file.malformed.count >= 25)
        #expect(Set(file.malformed.map(\.error.kind)) == Set(BeaconDecodingError.Kind.allCases))
        let names = file.valid.map(\.name) + file.malformed.map(\.name)
        #expect(Set(names).count == names.count, "vector names are unique")
    }

    /// The published vectors named in the task must be present, byte for byte.
    @Test func holdsThePublishedVectors() throws {
        let file = try GoldenVectorFile.shipped.get()
        func find(_ hex: String) -> ValidVector? { file.valid.first { Hex.string($0.bytes) == hex } }

        let apple = try #require(find("0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"))
        #expect(apple.beacon.uuid.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect((apple.beacon.major, apple.beacon.minor, apple.beacon.measuredPower) == (1, 2, -59))
        #expect(apple.flags == .generalDiscoverable && apple.canonical)

        let kontakt = try #require(find("02011A1AFF4C000215F7826DA64FA24E988024BC5B71E0893E00AA00BBB3"))
        #expect(kontakt.beacon.uuid.description == "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")
        #expect((kontakt.beacon.major, kontakt.beacon.minor, kontakt.beacon.measuredPower) == (170, 187, -77))
        #expect(kontakt.flags == .generalDiscoverableSimultaneous && kontakt.canonical)
    }

    @Test func coversTheEdgeValues() throws {
        let canonical = try GoldenVectorFile.shipped.get().valid.filter(\.canonical)
        let beacons = canonical.map(\.beacon)
        #expect(canonical.contains { $0.flags == .none })
        for value: UInt16 in [0, .max] {
            #expect(beacons.contains { $0.major == value }, "major \(value)")
            #expect(beacons.contains { $0.minor == value }, "minor \(value)")
        }
        for power: Int8 in [.min, .max] {
            #expect(beacons.contains { $0.measuredPower == power }, "power \(power)")
        }
        let all = try GoldenVectorFile.shipped.get().valid
        #expect(all.contains { $0.bytes.count == 31 && $0.bytes.last == 0 }, "a payload zero-padded to 31 bytes")
        #expect(all.contains { $0.bytes.count == IBeaconFormat.extendedFragmentMaximum }, "a 254-byte extended fragment")
    }

    @Test func refusesMistakesInTheFile() {
        let good = #"{"name": "x", "hex": "1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5", "uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 2, "power": -59, "flags": "none"}"#
        #expect(throws: Never.self) { try GoldenVectorFile.parse(good) }
        let mistakes = [
            good.replacingOccurrences(of: #""flags""#, with: #""flag""#),  // unknown key
            good.replacingOccurrences(of: "1AFF", with: "1aff"),  // lower-case hex
            good.replacingOccurrences(of: "E2C56DB5-", with: "e2c56db5-"),  // non-canonical uuid
            good.replacingOccurrences(of: #""none""#, with: #""0x02""#),  // flags we cannot encode
            #"{"name": "y", "hex": "", "error": "no-such-kind", "offset": 0}"#,
            #"{"name": "y", "hex": "", "error": "no-ibeacon"}"#,  // no offset
        ]
        for text in mistakes {
            #expect(throws: GoldenVectorFile.LoadError.self) { try GoldenVectorFile.parse(text) }
        }
    }
}

/// Every valid vector: encoding is byte-exact, and strict and lenient decoding give its fields.
@Suite struct ValidVectorTests {
    @Test(arguments: GoldenVectorFile.validVectors.filter(\.canonical))
    func encodesByteForByte(_ v: ValidVector) {
        #expect(Array(v.beacon.advertisingData(flags: v.flags)) == v.bytes)
        #expect(v.beacon.advertisingData(flags: v.flags).description == Hex.string(v.bytes))
        #expect(IBeacon.encodedSize(flags: v.flags) == v.bytes.count)

        // encode(into:) writes exactly its bytes and nothing past them.
        var buffer = [UInt8](repeating: 0xEE, count: 40)
        let written = buffer.withUnsafeMutableBytes { v.beacon.encode(flags: v.flags, into: $0) }
        #expect(written == v.bytes.count)
        #expect(Array(buffer[..<written]) == v.bytes)
        #expect(buffer[written...].allSatisfy { $0 == 0xEE })
    }

    @Test(arguments: GoldenVectorFile.validVectors)
    func decodesStrictly(_ v: ValidVector) throws {
        #expect(try IBeacon(decoding: v.bytes, options: v.options) == v.beacon)
        try v.bytes.withUnsafeBytes { (raw) throws in
            #expect(try IBeacon(decoding: raw, options: v.options) == v.beacon)
        }
        if let payload = AdvertisingPayload(v.bytes) {
            #expect(try IBeacon(decoding: payload, options: v.options) == v.beacon)
        }
    }

    @Test(arguments: GoldenVectorFile.validVectors)
    func decodesLeniently(_ v: ValidVector) throws {
        #expect(try IBeacon(decoding: v.bytes, options: .lenient) == v.beacon)
    }

    /// The `flags` field matches the Flags structure actually in the bytes (found by the walker,
    /// not by the decoder, which does not report flags).
    @Test(arguments: GoldenVectorFile.validVectors)
    func flagsFieldMatchesTheBytes(_ v: ValidVector) throws {
        let flagBytes: [[UInt8]] = try v.bytes.withUnsafeBytes { raw in
            var walker = ADStructureWalker(raw)
            var found: [[UInt8]] = []
            while let s = try walker.next() {
                if s.type == .flags { found.append(Array(s.data)) }
            }
            return found
        }
        #expect(flagBytes == (v.flags.byte.map { [[$0]] } ?? []))
    }
}

/// Every malformed vector: strict decoding fails with the recorded kind at the recorded offset,
/// through every entry point; lenient decoding gives what the vector says.
@Suite struct MalformedVectorTests {
    @Test(arguments: GoldenVectorFile.malformedVectors)
    func failsStrictlyWithKindAndOffset(_ v: MalformedVector) throws {
        #expect(throws: v.error) { try IBeacon(decoding: v.bytes, options: v.options) }
        v.bytes.withUnsafeBytes { (raw) -> Void in
            #expect(throws: v.error) { try IBeacon(decoding: raw, options: v.options) }
        }
        if let payload = AdvertisingPayload(v.bytes) {
            #expect(throws: v.error) { try IBeacon(decoding: payload, options: v.options) }
        }
        #expect(v.error.offset >= 0 && v.error.offset <= v.bytes.count)
    }

    @Test(arguments: GoldenVectorFile.malformedVectors.filter { $0.lenient != nil })
    func decodesLenientlyAsRecorded(_ v: MalformedVector) throws {
        switch v.lenient {
        case .beacon(let beacon):
            #expect(try IBeacon(decoding: v.bytes, options: .lenient) == beacon)
        case .error(let kind):
            // Lenient errors are reported at the end of the data (the BeaconDecodingError convention).
            #expect(throws: BeaconDecodingError(kind, at: v.bytes.count)) {
                try IBeacon(decoding: v.bytes, options: .lenient)
            }
        case nil:
            Issue.record("filtered out above")
        }
    }
}
