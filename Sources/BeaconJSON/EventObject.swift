// SPDX-License-Identifier: GPL-2.0-or-later

/// The envelope of every event line that `scan`, `advertise`, `cycle`, `play` and `walk` print
/// with `--json`: "time" (seconds since the run began) and "event" (its kind) first, then the
/// kind's own members (docs/JSON.md, docs/schema/).
public enum EventObject {
    /// `{"time":time,"event":event, members…}`; `time` is written as given (callers round it).
    public static func object(time: Double, event: String, _ members: [(String, JSONValue)] = []) -> JSONValue {
        .object([("time", .double(time)), ("event", .string(event))] + members)
    }
}

/// The kinds of one family of event lines (a run's, a scan's): each kind's "event" and members,
/// and decoding the kind a line's "event" names (an unknown one is `DecodingError.dataCorrupted`
/// naming "event").
public protocol EventKind: Sendable, Equatable, Decodable {
    /// The "event" member.
    var event: String { get }
    /// The members after the envelope, in the order they are written.
    var members: [(String, JSONValue)] { get }
}

/// One event line of a family of ``EventKind``s: the ``EventObject`` envelope and the kind's
/// members. `Codable`: it encodes exactly the members ``json`` writes (the one writer), and
/// decodes "time" and the kind.
public struct EventLine<Kind: EventKind>: Sendable, Equatable, Codable {
    /// Seconds since the run or scan began.
    public var time: Double
    public var kind: Kind

    /// An event `time` seconds in; `time` is written as given (callers round it).
    public init(time: Double, _ kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The line's object: the envelope, then the kind's members.
    public var json: JSONValue { EventObject.object(time: time, event: kind.event, kind.members) }

    /// Encodes the members of ``json``.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    enum Key: String, CodingKey { case time }

    /// Decodes "time" and the kind (which reads "event" and its members).
    public init(from decoder: any Decoder) throws {
        self.init(time: try decoder.container(keyedBy: Key.self).decode(Double.self, forKey: .time), try Kind(from: decoder))
    }
}
