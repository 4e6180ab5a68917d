// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
import Foundation
import Testing

/// BeaconJSON's `Codable` conformances against Foundation's coders: what the writer (and so
/// `beacon scan --json`) prints decodes to the values it was written from; what `JSONEncoder`
/// writes reads back with our own parser; a bad member is a `DecodingError` naming it.
@Suite struct CodableTests {
    static let address = BeaconJSONTests.address

    /// A report of every format (TLM included), and one without an RSSI.
    static let sightings: [SightingObject] = (BeaconJSONTests.beacons + [.eddystoneTLM(EddystoneTLM(batteryMillivolts: 3000, temperature: 0x1580, advertisingCount: 7, uptimeTenths: 9))])
        .map { SightingObject(time: 1.25, beacon: $0, rssi: -70, address: address, addressType: 1, extended: true) }
        + [SightingObject(time: 0.5, beacon: BeaconJSONTests.beacons[0], rssi: nil, address: address, addressType: 0, extended: false)]

    static let ranging = RangingObject(time: 1.036, beacons: [
        RangingEntryObject(identity: BeaconJSONTests.beacons[0].key!, power: -59, rssi: -50, accuracy: 0.19, proximity: "immediate",
                           lastSeen: 0.056, reportsPerSecond: 10, address: address),
        RangingEntryObject(identity: BeaconJSONTests.beacons[3].key!, power: -59, rssi: nil, accuracy: nil, proximity: "unknown",
                           lastSeen: 1.5, reportsPerSecond: 0.5, address: address),
    ])

    /// The members of a JSON text by name (`JSONEncoder` chooses its own order).
    static func membersByName(_ text: String) throws -> [String: JSONValue] {
        let members = try #require(try JSONValue(parsing: text).members)
        return Dictionary(members, uniquingKeysWith: { first, _ in first })
    }

    @Test(arguments: sightings)
    func aReportLineDecodesToTheSightingItWasWrittenFrom(sighting: SightingObject) throws {
        let line = sighting.json.text
        #expect(try JSONDecoder().decode(SightingObject.self, from: Data(line.utf8)) == sighting, "\(line)")
    }

    @Test func theLinesDocsJSONShowsDecode() throws {
        let report = #"{"time":0.081,"event":"report","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"power":-59,"rssi":-50,"address":"CB:81:10:5A:63:1F","address_type":1,"extended":true}"#
        let sighting = try JSONDecoder().decode(SightingObject.self, from: Data(report.utf8))
        #expect(sighting.json.text == report)
        let ranging = #"{"time":1.036,"event":"ranging","beacons":[{"format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"power":-59,"rssi":-50,"accuracy":0.19,"proximity":"immediate","last_seen":0.056,"reports_per_second":10,"address":"CB:81:10:5A:63:1F"}]}"#
        #expect(try JSONDecoder().decode(RangingObject.self, from: Data(ranging.utf8)).json.text == ranging)
    }

    @Test(arguments: sightings)
    func whatJSONEncoderWritesReadsBackWithOurParser(sighting: SightingObject) throws {
        let text = String(decoding: try JSONEncoder().encode(sighting), as: UTF8.self)
        #expect(try Self.membersByName(text) == Self.membersByName(sighting.json.text), "\(text)")
        if let key = sighting.beacon.key, let rssi = sighting.rssi {
            #expect(try TraceSample(line: text) == TraceSample(time: sighting.time, key: key, rssi: Double(rssi), powerAt1m: sighting.beacon.powerAt1m))
        }
    }

    @Test func aRangingUpdateRoundTripsThroughFoundation() throws {
        #expect(try JSONDecoder().decode(RangingObject.self, from: Data(Self.ranging.json.text.utf8)) == Self.ranging)
        let text = String(decoding: try JSONEncoder().encode(Self.ranging), as: UTF8.self)
        let entries = try #require(try Self.membersByName(text)["beacons"].flatMap { if case .array(let a) = $0 { a } else { nil } })
        #expect(entries.count == Self.ranging.beacons.count)
        for (entry, original) in zip(entries, Self.ranging.beacons) {
            let members = Dictionary(try #require(entry.members), uniquingKeysWith: { a, _ in a })
            #expect(members == (try Self.membersByName(original.json.text)))
        }
        #expect(try JSONDecoder().decode(RangingObject.self, from: Data(text.utf8)) == Self.ranging)
    }

    @Test(arguments: BeaconJSONTests.beacons + [.eddystoneTLM(EddystoneTLM(batteryMillivolts: 3000, temperature: 0x1580, advertisingCount: 7, uptimeTenths: 9))])
    func aBeaconObjectDecodesInEitherNaming(beacon: AnyBeacon) throws {
        for naming in [BeaconObject.Naming.payload, .profile] {
            let text = JSONValue.object(BeaconObject.fields(beacon, naming: naming)).text
            let decoded = try JSONDecoder().decode(CodableBeacon.self, from: Data(text.utf8))
            #expect(decoded.beacon == beacon, "\(text)")
            #expect(try Self.membersByName(String(decoding: JSONEncoder().encode(CodableBeacon(beacon, naming: naming)), as: UTF8.self)) == Self.membersByName(text))
        }
    }

    /// The last coding key of a `DecodingError`: the member it is about.
    static func member(of error: DecodingError) -> String? {
        if case .keyNotFound(let key, _) = error { return key.stringValue }
        if case .typeMismatch(_, let context) = error { return context.codingPath.last?.stringValue }
        if case .dataCorrupted(let context) = error { return context.codingPath.last?.stringValue }
        return nil
    }

    static let goodLine = #"{"time":0.081,"event":"report","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"power":-59,"rssi":-50,"address":"CB:81:10:5A:63:1F","address_type":1,"extended":true}"#

    @Test(arguments: [
        (#""major":1,"#, "", "major", "keyNotFound"),
        (#""major":1,"#, #""major":"1","#, "major", "typeMismatch"),
        (#""major":1,"#, #""major":65536,"#, "major", "dataCorrupted"),
        (#""rssi":-50,"#, "", "rssi", "keyNotFound"),
        (#""rssi":-50,"#, #""rssi":"-50","#, "rssi", "typeMismatch"),
        (#""uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","#, #""uuid":"x","#, "uuid", "dataCorrupted"),
        (#""time":0.081,"#, "", "time", "keyNotFound"),
        (#""address":"CB:81:10:5A:63:1F","#, #""address":"nowhere","#, "address", "dataCorrupted"),
        (#""extended":true"#, #""extended":1"#, "extended", "typeMismatch"),
        (#""event":"report""#, #""event":"ranging""#, "event", "dataCorrupted"),
        (#""format":"ibeacon""#, #""format":"ibeacon2""#, "format", "dataCorrupted"),
    ])
    func aBadMemberIsADecodingErrorNamingIt(replacing: String, with: String, member: String, kind: String) throws {
        let line = Self.goodLine.replacingOccurrences(of: replacing, with: with)
        #expect(line != Self.goodLine)
        let error = try #require(throws: DecodingError.self) { try JSONDecoder().decode(SightingObject.self, from: Data(line.utf8)) }
        #expect(Self.member(of: error) == member, "\(error)")
        #expect(String(describing: error).hasPrefix("DecodingError.\(kind)"), "\(error)")
    }

    /// The example of docs/JSON.md, "From Swift", line for line (``docsExampleIsThisTest`` checks).
    @Test func fromSwiftExample() throws {
        let line = #"{"time":0.081,"event":"report","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"power":-59,"rssi":-50,"address":"CB:81:10:5A:63:1F","address_type":1,"extended":true}"#
        let report = try JSONDecoder().decode(SightingObject.self, from: Data(line.utf8))
        if case .iBeacon(let b) = report.beacon { print(b.major, b.minor, report.rssi ?? "no RSSI") }
        let encoded = try JSONEncoder().encode(report)           // the same members, in JSONEncoder's order
        let again = try JSONDecoder().decode(SightingObject.self, from: encoded)
        print(again == report, report.json.text == line)           // true true: `json` keeps the documented order
        let stopped = try JSONDecoder().decode(RunEventObject.self, from: Data(#"{"time":2,"event":"stopped","adapter":"hci0","clean":true}"#.utf8))
        if case .stopped(let adapter, nil) = stopped.kind { print(adapter, "stopped clean") }
        #expect(again == report && report.json.text == line)
        #expect(stopped == RunEventObject(time: 2, .stopped(adapter: "hci0", left: nil)))
    }

    @Test func docsExampleIsThisTest() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/JSON.md"), encoding: .utf8)
        let section = try #require(docs.components(separatedBy: "## From Swift").dropFirst().first)
        let code = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let test = try String(contentsOf: here, encoding: .utf8)
        let lines = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("import ") && !$0.isEmpty }
        #expect(lines.count >= 5)
        for line in lines { #expect(test.contains(line), "docs/JSON.md's example line is not in \(here.lastPathComponent): \(line)") }
    }
}
