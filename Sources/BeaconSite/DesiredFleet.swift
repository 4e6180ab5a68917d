// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconProfiles
import Yams

/// A radio's desired fleet: what the controller publishes, retained, on
/// `…/hosts/<host>/<adapter>/desired`, and what the agent puts on air.
///
/// `{"revision": 7, "beacons": [{"name": "corridor-0", "uuid": "8B0C…", "major": 7, …}, …]}`:
/// each beacon is a profile entry (docs/PROFILES.md) in JSON, written by `FleetWriter` and read
/// by the profile reader with every check a profile file gets, so a desired payload can never
/// put on air what a profile could not.
public struct DesiredFleet: Sendable {
    /// Grows with each change the controller makes to this radio's fleet.
    public var revision: Int
    public var beacons: [BeaconProfile]

    public init(revision: Int, beacons: [BeaconProfile]) {
        self.revision = revision
        self.beacons = beacons
    }

    /// The largest revision (2^53: exact in any JSON reader's numbers).
    public static let maximumRevision = 1 << 53
    /// The largest payload read, as for a profile file.
    public static let maximumPayloadSize = ProfileLoader.maximumFileSize

    /// The payload's JSON.
    public var json: JSONValue { Self.json(revision: revision, entries: beacons.map(Self.entry)) }

    /// The bytes published.
    public var payload: [UInt8] { Self.payload(revision: revision, entries: beacons.map(Self.entry)) }

    /// The payload's JSON, from each beacon's ``entry(_:)`` made beforehand.
    static func json(revision: Int, entries: [JSONValue]) -> JSONValue {
        .object([("revision", .int(revision)), ("beacons", .array(entries))])
    }

    /// The bytes published, from each beacon's ``entry(_:)`` made beforehand (a publisher that
    /// keeps them makes each once: ``entry(_:)`` composes YAML, which costs).
    static func payload(revision: Int, entries: [JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        json(revision: revision, entries: entries).write(to: &bytes)
        return bytes
    }

    /// One beacon as a profile entry in JSON: `FleetWriter`'s entry, its YAML scalars as JSON
    /// numbers and strings.
    static func entry(_ beacon: BeaconProfile) -> JSONValue {
        // FleetWriter's flow mapping is YAML it writes itself: it always composes.
        guard let node = try? Yams.compose(yaml: FleetWriter.flowMapping(beacon)) else { return .object([]) }
        return YAMLToJSON.value(node)
    }

    /// Reads a desired payload received on `topic` (which labels the issues), or says why it is
    /// refused: the first problem with its field, value, reason, line and column, and how many
    /// there were.
    public static func read(_ payload: [UInt8], topic: String) -> Result<DesiredFleet, DesiredRejection> {
        func refuse(_ field: String, _ value: String, _ reason: String) -> Result<DesiredFleet, DesiredRejection> {
            .failure(DesiredRejection(field: field, value: value, reason: reason, line: 1, column: 1, issues: 1))
        }
        if payload.count > maximumPayloadSize {
            return refuse("payload", "\(payload.count) bytes", "a desired fleet has at most \(maximumPayloadSize) bytes")
        }
        guard let text = String(validating: payload, as: UTF8.self) else { return refuse("payload", "(not UTF-8)", "must be JSON text (UTF-8)") }
        let reader = ProfileReader(file: topic)
        let fleet = read(text, with: reader)
        let issues = reader.sink.sortedIssues
        if let first = issues.first {
            return .failure(DesiredRejection(field: first.field, value: first.value, reason: first.message, line: first.location.line,
                                             column: first.location.column, issues: issues.count))
        }
        guard let fleet else { return refuse("payload", "(empty)", "must be an object with `revision` and `beacons`") }
        // The fields are read (with their lines and columns) by the YAML reader, which also
        // takes YAML that is not JSON (`{revision: 1, beacons: []}`, anchors, comments): the
        // contract is JSON, so anything else is refused, however readable.
        do throws(JSONSyntaxError) { _ = try JSONValue(parsing: text) } catch {
            return refuse("payload", "(not JSON)", "must be JSON (RFC 8259): \(error)")
        }
        return .success(fleet)
    }

    private static func read(_ text: String, with reader: ProfileReader) -> DesiredFleet? {
        let root: Node?
        do throws(DocumentRefused) { root = try reader.sink.compose(text) } catch { return nil }
        guard let root, let top = root.mapping else {
            if let root { reader.sink.report(root, field: "document", "must be an object with `revision` and `beacons`, not \(root.shapeName)") }
            return nil
        }
        let keys = reader.fields(of: top, at: root, allowed: ["revision", "beacons"])
        var revision: Int?
        if let field = keys["revision"] {
            revision = reader.integer(field, path: "revision", range: 0...maximumRevision)
        } else {
            reader.missing("revision", in: root, "a desired fleet has a revision (an integer the controller increments)")
        }
        var beacons: [BeaconProfile] = []
        if let field = keys["beacons"] {
            // An empty list is a radio with nothing to carry (a fleet file needs one beacon).
            if field.value.sequence?.isEmpty != true {
                beacons = reader.embeddedFleet(beacons: field.value, defaults: nil, namePrefix: "desired")
            }
        } else {
            reader.missing("beacons", in: root, "a desired fleet lists its beacons (profile entries), [] for none")
        }
        guard let revision else { return nil }
        return DesiredFleet(revision: revision, beacons: beacons)
    }
}

/// Why a desired payload was refused: published in the radio's state topic, so whoever wrote it
/// sees the field and the reason; nothing of it goes on air.
public struct DesiredRejection: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var value: String
    public var reason: String
    /// Where in the payload (JSON text, lines and columns from 1).
    public var line: Int
    public var column: Int
    /// How many problems the payload has (only the first is described).
    public var issues: Int

    public init(field: String, value: String, reason: String, line: Int, column: Int, issues: Int) {
        self.field = field
        self.value = value
        self.reason = reason
        self.line = line
        self.column = column
        self.issues = issues
    }

    public var json: JSONValue {
        .object([("field", .string(field)), ("value", .string(value)), ("reason", .string(reason)), ("line", .int(line)),
                 ("column", .int(column)), ("issues", .int(issues))])
    }

    public init?(json object: JSONObjectView) {
        guard let field = object.string("field"), let reason = object.string("reason") else { return nil }
        self.init(field: field, value: object.string("value") ?? "", reason: reason, line: object.int("line") ?? 1,
                  column: object.int("column") ?? 1, issues: object.int("issues") ?? 1)
    }

    public var description: String { "\(line):\(column): \(field): \(value): \(reason)" }
}
