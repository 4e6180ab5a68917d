// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

/// Which format one payload given as hex is (what `beacon decode` answers for each input).
@Suite struct PayloadIdentifyingTests {
    static let appleHex = "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"
    static let overrunHex = "0201061BFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"

    private func failure(_ text: String, _ options: BeaconDecodingOptions = .strict) -> PayloadDecodingError? {
        do throws(PayloadDecodingError) { _ = try AnyBeacon(identifyingHex: text, options: options) } catch { return error }
        return nil
    }

    @Test func anIBeaconIsReadAsOne() throws {
        let beacon = try AnyBeacon(identifyingHex: Self.appleHex)
        guard case .iBeacon(let i) = beacon else { Issue.record("not an iBeacon: \(beacon)"); return }
        #expect(i.major == 1 && i.minor == 2 && i.measuredPower == -59)
        #expect(try AnyBeacon(identifyingHex: "0x" + Self.appleHex.lowercased()) == beacon)
    }

    @Test(arguments: [BeaconFormat.eddystoneUID, .eddystoneURL, .altBeacon])
    func otherFormatsAreReadWhenThereIsNoIBeacon(format: BeaconFormat) throws {
        let beacon: AnyBeacon = switch format {
        case .eddystoneURL: .eddystoneURL(try EddystoneURL(url: "https://example.com"))
        case .eddystoneUID: .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace(high: 0xABAB_ABAB_ABAB_ABAB, low: 0xABAB),
                                                       instance: EddystoneInstance(0x0102_0304_0506), txPower: -20))
        default: .altBeacon(AltBeacon(id: AltBeaconID(prefix: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, suffix: 0x0001_0002)))
        }
        let hex = Hex.string(beacon.advertisingData())
        #expect(try AnyBeacon(identifyingHex: hex) == beacon)
    }

    /// The iBeacon reading's own fault wins: it is what the answer was before other formats.
    @Test func anIBeaconFaultIsTheIBeaconReadingsFault() throws {
        let error = try #require(failure(Self.overrunHex))
        #expect(error.kind == .iBeacon(.lengthOverrun) && error.kind.name == "length-overrun")
        #expect(error.offset == 3 && !error.offsetIsCharacter)
        #expect(error.description.hasPrefix("byte 3: length-overrun: "), "\(error)")
        #expect(error.reason == BeaconDecodingError(.lengthOverrun, at: 3).reason)
    }

    @Test func dataWithoutAnyBeaconIsNoIBeacon() throws {
        let error = try #require(failure("020106"))
        #expect(error.kind == .iBeacon(.noIBeacon) && error.kind.name == "no-ibeacon")
    }

    /// A fault in another format's structure is that format's fault, not "no iBeacon".
    @Test func anotherFormatsFaultIsNamed() throws {
        // Eddystone-URL, scheme https://, then 0x0F: a byte Eddystone reserves.
        let error = try #require(failure("0201060303AAFE0716AAFE10EC030F"))
        #expect(error.kind == .beacon(.eddystoneURLCharacter) && error.kind.name == "eddystone-url-character", "\(error)")
        #expect(error.reason == AnyBeaconDecodingError(.eddystoneURLCharacter, at: error.offset).reason)
    }

    /// The fault's place in text that is not hex is a character offset, also for a fullwidth
    /// digit (which Unicode calls a hex digit, and ``Hex/bytes(_:)`` does not accept).
    @Test(arguments: [("02０1", 2), ("0x02\u{FF21}1", 4), ("0201 06é", 7), ("0:21", 1), ("0201e", 5), ("E2 C5 zz", 6)])
    func notHexIsPlacedByCharacter(input: String, offset: Int) throws {
        let error = try #require(failure(input))
        #expect(error.kind == .notHex && error.kind.name == "invalid-hex")
        #expect(error.offset == offset && error.offsetIsCharacter, "\(error)")
        #expect(Hex.firstFault(in: input) == offset)
    }

    @Test(arguments: ["020106", "0x02 01:06", "", "0x"])
    func hexHasNoFaultBeforeItsEnd(input: String) {
        #expect(Hex.bytes(input) != nil)
        #expect(Hex.firstFault(in: input) == input.count)
    }

    @Test func optionsReachTheReading() throws {
        let junk = "050941" + Self.appleHex.dropFirst(6)
        #expect(failure(junk) != nil)
        #expect(try AnyBeacon(identifyingHex: junk, options: .lenient) == AnyBeacon(identifyingHex: Self.appleHex))
    }
}
