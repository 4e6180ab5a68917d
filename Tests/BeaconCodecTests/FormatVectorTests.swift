// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

/// Two decoded beacons are the same beacon: URLs by their text (a URL sent without expansion
/// codes is the same URL as the one with them), everything else field by field.
func sameBeacon(_ a: AnyBeacon, _ b: AnyBeacon) -> Bool {
    if case .eddystoneURL(let x) = a, case .eddystoneURL(let y) = b { return x.url == y.url && x.txPower == y.txPower }
    return a == b
}

func decodeAny(_ bytes: [UInt8], _ options: BeaconDecodingOptions) -> FormatVector.Expectation {
    do throws(AnyBeaconDecodingError) { return .beacon(try AnyBeacon(decoding: bytes, options: options)) } catch { return .error(error) }
}

func matches(_ got: FormatVector.Expectation, _ expected: FormatVector.Expectation) -> Bool {
    switch (got, expected) {
    case (.beacon(let a), .beacon(let b)): return sameBeacon(a, b)
    case (.error(let a), .error(let b)): return a == b
    default: return false
    }
}

@Suite struct FormatVectorFileTests {
    @Test func loadsWithEveryFormatAndEveryErrorKind() throws {
        let vectors = try FormatVectorFiles.shipped.get()
        for format in BeaconFormat.allCases where format != .iBeacon {
            let mine = vectors.filter { $0.format == format }
            #expect(mine.filter { $0.flags != nil }.count >= 6, "\(format): valid vectors")
            #expect(mine.filter { $0.flags == nil }.count >= 5, "\(format): malformed vectors")
            #expect(Set(mine.compactMap(\.flags)) == Set(BeaconFlags.allCases), "\(format): every flags option")
        }
        // Every error kind is shown somewhere: in these files, or (for the Apple-data kinds) in
        // ibeacon.jsonl, whose vectors AnyBeacon must judge as IBeacon does (below).
        var kinds = Set(vectors.compactMap { v -> AnyBeaconDecodingError.Kind? in
            if case .error(let e) = v.expected { return e.kind }
            return nil
        })
        kinds.formUnion(((try? GoldenVectorFile.shipped.get())?.malformed ?? []).map { AnyBeaconDecodingError.Kind(sameAs: $0.error.kind) })
        #expect(kinds == Set(AnyBeaconDecodingError.Kind.allCases))
        let names = vectors.map(\.description)
        #expect(Set(names).count == names.count)
    }

    @Test func refusesMistakesInTheFile() {
        let good = #"{"name": "x", "hex": "0201060303AAFE0E16AAFE10EC036578616D706C6507", "url": "https://example.com", "tx_power": -20, "flags": "0x06"}"#
        #expect(throws: Never.self) { try FormatVectorFiles.parse(good, format: .eddystoneURL) }
        for text in [
            good.replacingOccurrences(of: #""url""#, with: #""uri""#),
            good.replacingOccurrences(of: "0201", with: "0x0201"),
            good.replacingOccurrences(of: "-20", with: "-200"),
            #"{"name": "y", "hex": "", "error": "no-such-kind", "offset": 0}"#,
        ] {
            #expect(throws: FormatVectorFiles.LoadError.self) { try FormatVectorFiles.parse(text, format: .eddystoneURL) }
        }
        #expect(throws: FormatVectorFiles.LoadError.self) { try FormatVectorFiles.parse(good, format: .eddystoneUID) }
    }
}

@Suite struct FormatVectorTests {
    @Test(arguments: FormatVectorFiles.vectors.filter(\.canonical))
    func encodesByteForByte(_ v: FormatVector) throws {
        // A canonical vector is a valid beacon with its flags: anything else is a mistake in
        // the vector files, not a case to skip.
        guard case .beacon(let beacon) = v.expected else {
            Issue.record("canonical vector \(v) is not a beacon")
            return
        }
        let flags = try #require(v.flags, "canonical vector \(v) has no flags")
        #expect(beacon.format == v.format)
        #expect(Array(beacon.advertisingData(flags: flags)) == v.bytes)
        #expect(beacon.encodedSize(flags: flags) == v.bytes.count)
        var buffer = [UInt8](repeating: 0xEE, count: 40)
        let written = buffer.withUnsafeMutableBytes { beacon.encode(flags: flags, into: $0) }
        #expect(Array(buffer[..<written]) == v.bytes)
        #expect(buffer[written...].allSatisfy { $0 == 0xEE })
    }

    @Test(arguments: FormatVectorFiles.vectors)
    func decodesStrictlyAsRecorded(_ v: FormatVector) {
        #expect(matches(decodeAny(v.bytes, v.options), v.expected), "got \(decodeAny(v.bytes, v.options))")
        if let payload = AdvertisingPayload(v.bytes) {
            let viaPayload: FormatVector.Expectation
            do throws(AnyBeaconDecodingError) { viaPayload = .beacon(try AnyBeacon(decoding: payload, options: v.options)) } catch { viaPayload = .error(error) }
            #expect(matches(viaPayload, v.expected))
        }
        if case .error(let e) = v.expected { #expect((0...v.bytes.count).contains(e.offset)) }
    }

    @Test(arguments: FormatVectorFiles.vectors.filter { $0.lenient != nil })
    func decodesLenientlyAsRecorded(_ v: FormatVector) throws {
        let lenient = try #require(v.lenient)
        #expect(matches(decodeAny(v.bytes, .lenient), lenient), "got \(decodeAny(v.bytes, .lenient))")
    }

    /// The other formats' payloads are not iBeacons: IBeacon's own decoder says so, as before.
    @Test(arguments: FormatVectorFiles.vectors.filter { $0.flags != nil })
    func iBeaconDecoderFindsNoIBeacon(_ v: FormatVector) {
        #expect(throws: BeaconDecodingError(.noIBeacon, at: v.bytes.count)) { try IBeacon(decoding: v.bytes, options: v.options) }
    }
}

/// AnyBeacon judges every iBeacon golden vector exactly as IBeacon does.
@Suite struct AnyBeaconOnIBeaconVectorsTests {
    @Test(arguments: GoldenVectorFile.validVectors)
    func validIBeaconsAreIBeacons(_ v: ValidVector) throws {
        #expect(try AnyBeacon(decoding: v.bytes, options: v.options) == .iBeacon(v.beacon))
        #expect(try AnyBeacon(decoding: v.bytes, options: .lenient) == .iBeacon(v.beacon))
    }

    @Test(arguments: GoldenVectorFile.malformedVectors)
    func malformedIBeaconsFailAlike(_ v: MalformedVector) throws {
        let expected = AnyBeaconDecodingError(AnyBeaconDecodingError.Kind(sameAs: v.error.kind), at: v.error.offset)
        #expect(throws: expected) { try AnyBeacon(decoding: v.bytes, options: v.options) }
        switch v.lenient {
        case .beacon(let b): #expect(try AnyBeacon(decoding: v.bytes, options: .lenient) == .iBeacon(b))
        case .error: #expect(throws: AnyBeaconDecodingError(.noBeacon, at: v.bytes.count)) { try AnyBeacon(decoding: v.bytes, options: .lenient) }
        case nil: break
        }
    }

    @Test func everyIBeaconKindHasItsNamesake() {
        for kind in BeaconDecodingError.Kind.allCases {
            let mapped = AnyBeaconDecodingError.Kind(sameAs: kind)
            #expect(mapped.rawValue == kind.rawValue || (kind == .noIBeacon && mapped == .noBeacon) || (kind == .duplicateIBeacon && mapped == .duplicateBeacon))
            #expect(AnyBeaconDecodingError(BeaconDecodingError(kind, at: 3)).kind == mapped)
        }
    }
}
