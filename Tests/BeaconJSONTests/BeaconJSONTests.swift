// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
import Testing

/// The objects of BeaconJSON: what one command writes, another reads back as the same values.
@Suite struct BeaconJSONTests {
    static let uuid = BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E")!
    static let address = BluetoothAddress("CB:81:10:5A:63:1F")!

    /// Every format with an identity, as `scan --json` prints a report of it.
    static let beacons: [AnyBeacon] = [
        .iBeacon(IBeacon(uuid: uuid, major: 1, minor: 65535, measuredPower: -59)),
        .altBeacon(AltBeacon(id: AltBeaconID(prefix: uuid, suffix: 7), referenceRSSI: -61)),
        .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace(high: 0x00112233_44556677, low: 0x8899), instance: EddystoneInstance(0xABCDEF), txPower: -20)),
        .eddystoneURL(try! EddystoneURL(url: "https://example.com/a", txPower: -18)),
    ]

    @Test(arguments: beacons)
    func reportReadsBackAsTheSampleItWasWrittenFrom(beacon: AnyBeacon) throws {
        let line = SightingObject(time: 1.25, beacon: beacon, rssi: -70, address: Self.address, addressType: 1, extended: true).json.text
        let sample = try #require(try TraceSample(line: line))
        #expect(sample.key == beacon.key)
        #expect(sample.time == 1.25 && sample.rssi == -70)
        #expect(sample.powerAt1m == beacon.powerAt1m, "\(line)")
    }

    @Test func iBeaconReportIsByteForByteWhatScanAlwaysPrinted() {
        let line = SightingObject(time: 0.081, beacon: Self.beacons[0], rssi: -50, address: Self.address, addressType: 1, extended: true).json.text
        #expect(line == #"{"time":0.081,"event":"report","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":65535,"power":-59,"rssi":-50,"address":"CB:81:10:5A:63:1F","address_type":1,"extended":true}"#)
    }

    /// The byte writer (decode --capture) and the member list (every other command) are one
    /// definition: the same text for every format, in both namings.
    @Test(arguments: beacons + [.eddystoneTLM(EddystoneTLM(batteryMillivolts: 3000, temperature: 0x1580, advertisingCount: 7, uptimeTenths: 9))])
    func bytesAreTheMembersText(beacon: AnyBeacon) {
        for naming in [BeaconObject.Naming.payload, .profile] {
            var bytes: [UInt8] = Array("{".utf8)
            BeaconObject.write(beacon, naming: naming, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
            #expect(String(decoding: bytes, as: UTF8.self) == JSONValue.object(BeaconObject.fields(beacon, naming: naming)).text)
        }
    }

    @Test func otherEventsAndTelemetryAreNotSamples() throws {
        #expect(try TraceSample(line: #"{"time":1,"event":"ranging","beacons":[]}"#) == nil)
        #expect(try TraceSample(line: "   ") == nil)
        let tlm = AnyBeacon.eddystoneTLM(EddystoneTLM(batteryMillivolts: 3000))
        #expect(try TraceSample(line: SightingObject(time: 1, beacon: tlm, rssi: -60, address: Self.address, addressType: 0, extended: false).json.text) == nil)
    }

    @Test func badLinesSayWhatIsMissing() {
        #expect(throws: TraceSample.LineError.notAnObject) { try TraceSample(line: "[1,2]") }
        #expect(throws: TraceSample.LineError.notAnObject) { try TraceSample(line: #"{"time":1"#) }
        #expect(throws: TraceSample.LineError.incompleteIBeacon) { try TraceSample(line: #"{"time":1,"uuid":"x","major":1,"minor":2,"rssi":-60}"#) }
        #expect(throws: TraceSample.LineError.incompleteIBeacon) { try TraceSample(line: #"{"time":1e999,"uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":2,"rssi":-60}"#) }
        #expect(throws: TraceSample.LineError.incompleteIBeacon) { try TraceSample(line: #"{"time":1,"uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":65536,"minor":2,"rssi":-60}"#) }
        #expect(throws: TraceSample.LineError.incomplete(format: "altbeacon")) { try TraceSample(line: #"{"time":1,"format":"altbeacon","rssi":-60}"#) }
    }

    @Test func readerRoundTripsWhatTheWriterWrites() throws {
        let value = JSONValue.object([
            ("s", .string("quote \" backslash \\ tab \t nul \u{0} é 😀")), ("i", .int(-42)), ("d", .double(0.125)), ("e", .double(1e300)),
            ("b", .bool(false)), ("n", .null), ("a", .array([.int(1), .object([]), .array([])])),
        ])
        #expect(try JSONValue(parsing: value.text) == value)
        #expect(try JSONValue(parsing: #" {"u":"\u00e9\ud83d\ude00\/"} "#) == .object([("u", .string("é😀/"))]))
    }

    @Test func readerRefusesWhatIsNotJSONAndBoundsNesting() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"\u{1}\"", "tru", "{} {}", "\"\\x\""] {
            #expect(throws: JSONSyntaxError.self, "\(bad)") { try JSONValue(parsing: bad) }
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
        let allowed = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect((try? JSONValue(parsing: allowed)) != nil)
    }
}
