// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

/// Encoding URL text: schemes and expansions chosen longest first, and errors that say why.
@Suite struct EddystoneURLTests {
    @Test func tablesMatchTheSpecRanges() {
        #expect(EddystoneURLCodes.schemes.count == Int(EddystoneURLCodes.lastScheme) + 1)
        #expect(EddystoneURLCodes.expansions.count == Int(EddystoneURLCodes.lastExpansion) + 1)
    }

    @Test func choosesTheLongestSchemeAndExpansions() throws {
        let url = try EddystoneURL(url: "https://www.example.com/info.info/x.com")
        #expect(url.scheme == 0x01)
        #expect(url.encodedBytes == Array("example".utf8) + [0x00] + Array("info".utf8) + [0x04] + [UInt8(ascii: "x"), 0x07])
        #expect(url.url == "https://www.example.com/info.info/x.com")
    }

    @Test func tooLongSaysByHowMuch() {
        // 18 bytes after "https://": one over.
        #expect(throws: EddystoneURLError(.tooLong, url: "https://abcdefghijklmnopqr", encodedLength: 18)) {
            try EddystoneURL(url: "https://abcdefghijklmnopqr")
        }
        do {
            _ = try EddystoneURL(url: "https://www.a-very-long-domain.com/with/a/path")  // 18 + 1 (.com/) + 11
            Issue.record("encoded a URL of 30 bytes")
        } catch {
            #expect(error.encodedLength == 30)
            #expect(error.description.contains("encodes to 30 bytes after the scheme, 13 over the 17-byte limit"))
        }
    }

    @Test func refusesOtherSchemesAndCharacters() {
        #expect(throws: EddystoneURLError(.unsupportedScheme, url: "ftp://x")) { try EddystoneURL(url: "ftp://x") }
        #expect(throws: EddystoneURLError(.unsupportedScheme, url: "HTTPS://x")) { try EddystoneURL(url: "HTTPS://x") }
        #expect(throws: EddystoneURLError(.invalidCharacter, url: "https://a b", characterOffset: 9)) { try EddystoneURL(url: "https://a b") }
        #expect(throws: EddystoneURLError(.invalidCharacter, url: "https://é.fr", characterOffset: 8)) { try EddystoneURL(url: "https://é.fr") }
    }

    @Test func temperatureFixedPoint() {
        #expect(EddystoneTLM.fixedPoint(celsius: 25.5) == 6528)
        #expect(EddystoneTLM.fixedPoint(celsius: -10.25) == -2624)
        #expect(EddystoneTLM.fixedPoint(celsius: -128) == nil)  // 0x8000 means "not supported"
        #expect(EddystoneTLM.fixedPoint(celsius: 128) == nil)
        #expect(EddystoneTLM(temperature: -2624).celsius == -10.25)
        #expect(EddystoneTLM().celsius == nil)
    }
}
