// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
import Foundation
import Testing

/// The run's and the scan's events (``RunEventObject``, ``ScanEventObject``) against Foundation's
/// coders: every kind's line, as the writer prints it, decodes to the value it was written from;
/// what `JSONEncoder` writes reads back with our own parser; a missing member or an unknown
/// "event" is a `DecodingError` naming it.
@Suite struct EventCodableTests {
    static let plan = JSONValue.object([
        ("adapters", .array([.object([("adapter", .string("hci0")), ("mode", .string("extended")), ("slot_ms", .double(1.5)), ("events_per_turn", .null)])])),
        ("beacons", .array([])), ("goal_ms", .int(1000)), ("meets_goal", .bool(true)), ("warnings", .array([.string("a \"quoted\" warning")])),
    ])
    static let next = RunEvent.NextStep(time: 12.5, description: "door-1 off")

    /// One of every kind, optional members both present and absent.
    static let runEvents: [RunEventObject] = [
        RunEventObject(time: 0, .plan(plan)),
        RunEventObject(time: 0.012, .onAir(beacon: "door-1", adapter: "hci0", advertiser: 1, address: "C0:00:00:00:00:01", selectedTxPower: -3)),
        RunEventObject(time: 0.013, .onAir(beacon: "door-2", adapter: "hci0", advertiser: 2, address: "C0:00:00:00:00:02", selectedTxPower: nil)),
        RunEventObject(time: 0.5, .offAir(beacon: "door-1", adapter: "hci0", advertiser: 1)),
        RunEventObject(time: 0.6, .slot(adapter: "hci0", index: 3, commands: 4, latenessMs: 0.25)),
        RunEventObject(time: 0.7, .error(adapter: "hci1", message: "the controller went away")),
        RunEventObject(time: 0.8, .turnTiming(adapter: "hci0", byController: true)),
        RunEventObject(time: 0.9, .applied(adapter: "hci0", generation: 2)),
        RunEventObject(time: 1, .updateFailed(adapter: "hci0", generation: 3, message: "refused")),
        RunEventObject(time: 1.1, .recovered(adapter: "hci0", reason: "reset", beacons: ["door-1", "door-2"], afterMs: 120, afterAdapterBackMs: nil)),
        RunEventObject(time: 1.2, .recovered(adapter: "hci0", reason: "unplugged", beacons: [], afterMs: 900, afterAdapterBackMs: 40.5)),
        RunEventObject(time: 2, .stopped(adapter: "hci0", left: nil)),
        RunEventObject(time: 2, .stopped(adapter: "hci1", left: .init(beacons: ["door-3"], reason: "the adapter is gone"))),
        RunEventObject(time: 2.5, .note(message: "reloading fleet.yaml")),
        RunEventObject(time: 0.001, .scenarioStart(scenarioTime: 0, unixTime: 1_790_000_000.123, onAir: ["door-1"], next: next)),
        RunEventObject(time: 3, .scenarioStep(scenarioTime: 12.5, unixTime: 1_790_000_012.623, changes: ["door-1 off"], onAir: [], generation: 4, behind: false, next: nil)),
        RunEventObject(time: 3.5, .scenarioClock(scenarioTime: 13, next: next)),
        RunEventObject(time: 4, .walker(walkTime: 4, unixTime: 1_790_000_004, x: 1.5, y: -2.25, generation: nil, behind: true, beacons: [
            .init(name: "a-door", measuredPower: -59, txPower: nil, distance: 2.704),
            .init(name: "b-window", measuredPower: -61, txPower: -4, distance: 5),
        ])),
    ]

    static let region = ScanEvent.Region(uuid: BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E"), major: 1, minor: nil)
    static let scanEvents: [ScanEventObject] = [
        ScanEventObject(time: 0.036, .scanning(adapter: "hci0", mode: "active", region: region, model: .object([("name", .string("pathloss")), ("exponent", .double(2.5))]), as: "ios")),
        ScanEventObject(time: 0.081, .enter(beacon: BeaconJSONTests.beacons[0].key!, region: region, regionChanged: true)),
        ScanEventObject(time: 4.981, .exit(beacon: BeaconJSONTests.beacons[1].key!, region: .init(uuid: nil, major: nil, minor: nil), regionChanged: false)),
        ScanEventObject(time: 8.038, .stopped),
    ]

    /// A JSON text's value with every object's members in name order (a plan decoded by
    /// `JSONDecoder` has its members in the decoder's order).
    static func canonical(_ text: String) throws -> JSONValue {
        func sorted(_ v: JSONValue) -> JSONValue {
            switch v {
            case .object(let m): .object(m.map { ($0.0, sorted($0.1)) }.sorted { $0.0 < $1.0 })
            case .array(let a): .array(a.map(sorted))
            default: v
            }
        }
        return sorted(try JSONValue(parsing: text))
    }

    @Test(arguments: runEvents)
    func aRunEventLineDecodesToTheEventItWasWrittenFrom(event: RunEventObject) throws {
        let line = event.json.text
        let decoded = try JSONDecoder().decode(RunEventObject.self, from: Data(line.utf8))
        if case .plan = event.kind {
            #expect(try Self.canonical(decoded.json.text) == Self.canonical(line), "\(line)")
        } else {
            #expect(decoded == event, "\(line)")
            #expect(decoded.json.text == line)
        }
    }

    @Test(arguments: runEvents)
    func whatJSONEncoderWritesOfARunEventReadsBackWithOurParser(event: RunEventObject) throws {
        let text = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        #expect(try Self.canonical(text) == Self.canonical(event.json.text), "\(text)")
    }

    @Test(arguments: scanEvents)
    func aScanEventRoundTripsThroughFoundation(event: ScanEventObject) throws {
        let line = event.json.text
        let decoded = try JSONDecoder().decode(ScanEventObject.self, from: Data(line.utf8))
        if case .scanning = event.kind {
            // The model is a JSONValue: decoded, its members come in name order.
            #expect(try Self.canonical(decoded.json.text) == Self.canonical(line), "\(line)")
        } else {
            #expect(decoded == event, "\(line)")
        }
        let text = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        #expect(try Self.canonical(text) == Self.canonical(line), "\(text)")
    }

    /// The writer's lines, as the commands print them (the members in the documented order).
    @Test func theWriterPrintsTheDocumentedLines() {
        #expect(Self.runEvents[12].json.text == #"{"time":2,"event":"stopped","adapter":"hci1","clean":false,"may_be_on_air":["door-3"],"reason":"the adapter is gone"}"#)
        #expect(Self.runEvents[2].json.text == #"{"time":0.013,"event":"on_air","beacon":"door-2","adapter":"hci0","advertiser":2,"address":"C0:00:00:00:00:02","selected_tx_power":null}"#)
        #expect(Self.runEvents[16].json.text == #"{"time":3.5,"event":"scenario-clock","scenario_time":13,"next_time":12.5,"next":"door-1 off"}"#)
        #expect(Self.runEvents[17].json.text == #"{"time":4,"event":"walker","walk_time":4,"unix_time":1790000004,"x":1.5,"y":-2.25,"generation":null,"behind":true,"beacons":{"a-door":{"measured_power":-59,"tx_power":null,"distance":2.704},"b-window":{"measured_power":-61,"tx_power":-4,"distance":5}}}"#)
    }

    /// docs/JSON.md's and docs/RANGING.md's scan lines decode and print again unchanged.
    @Test(arguments: [
        #"{"time":0.036,"event":"scanning","adapter":"tcp:127.0.0.1:35075","mode":"extended","region":{"uuid":null,"major":null,"minor":null},"model":{"name":"altbeacon"},"as":"raw"}"#,
        #"{"time":0.081,"event":"enter","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"region":{"uuid":null,"major":null,"minor":null},"region_changed":true}"#,
        #"{"time":4.981,"event":"exit","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"region":{"uuid":null,"major":null,"minor":null},"region_changed":true}"#,
        #"{"time":8.038,"event":"stopped"}"#,
    ])
    func theDocumentedScanLinesDecode(line: String) throws {
        #expect(try JSONDecoder().decode(ScanEventObject.self, from: Data(line.utf8)).json.text == line)
    }

    @Test(arguments: [
        (#"{"time":1,"event":"applied","adapter":"hci0"}"#, "generation", "keyNotFound"),
        (#"{"time":1,"event":"stopped","adapter":"hci0","clean":false,"reason":"gone"}"#, "may_be_on_air", "keyNotFound"),
        (#"{"time":1,"event":"scenario-clock","scenario_time":2,"next":null}"#, "next_time", "keyNotFound"),
        (#"{"time":1,"event":"walker","walk_time":1,"unix_time":1,"x":0,"y":0,"generation":null,"behind":false,"beacons":{"a":{"tx_power":null,"distance":1}}}"#, "measured_power", "keyNotFound"),
        (#"{"event":"note","message":"m"}"#, "time", "keyNotFound"),
        (#"{"time":1,"event":"on_air","beacon":"b","adapter":"hci0","advertiser":"1","address":"C0:00:00:00:00:01","selected_tx_power":null}"#, "advertiser", "typeMismatch"),
        (#"{"time":1,"event":"report"}"#, "event", "dataCorrupted"),
    ])
    func aBadRunEventIsADecodingErrorNamingTheMember(line: String, member: String, kind: String) throws {
        let error = try #require(throws: DecodingError.self) { try JSONDecoder().decode(RunEventObject.self, from: Data(line.utf8)) }
        #expect(CodableTests.member(of: error) == member, "\(error)")
        #expect(String(describing: error).hasPrefix("DecodingError.\(kind)"), "\(error)")
    }

    @Test(arguments: [
        (#"{"time":1,"event":"enter","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"region_changed":true}"#, "region", "keyNotFound"),
        (#"{"time":1,"event":"exit","format":"ibeacon","major":1,"minor":0,"region":{"uuid":null,"major":null,"minor":null},"region_changed":true}"#, "uuid", "keyNotFound"),
        (#"{"time":1,"event":"enter","format":"ibeacon","uuid":"25795A1D-C318-47F0-A49D-7A2D1D58C79E","major":1,"minor":0,"region":{"uuid":null,"major":70000,"minor":null},"region_changed":true}"#, "major", "dataCorrupted"),
        (#"{"time":1,"event":"on_air"}"#, "event", "dataCorrupted"),
    ])
    func aBadScanEventIsADecodingErrorNamingTheMember(line: String, member: String, kind: String) throws {
        let error = try #require(throws: DecodingError.self) { try JSONDecoder().decode(ScanEventObject.self, from: Data(line.utf8)) }
        #expect(CodableTests.member(of: error) == member, "\(error)")
        #expect(String(describing: error).hasPrefix("DecodingError.\(kind)"), "\(error)")
    }
}
