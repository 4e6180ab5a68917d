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
