// SPDX-License-Identifier: GPL-2.0-or-later

/// A JSON value written with keys in the order given, so that output such as
/// `{"uuid":…,"major":…,"minor":…,"power":…}` reads the way the documentation shows it
/// (Foundation's `JSONEncoder` can only sort keys alphabetically or not at all), and read back
/// by ``init(parsing:)`` without Foundation.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    /// A number with a fraction; whole values print without one (100, not 100.0), and a value
    /// that is not finite prints `null` (JSON has no NaN or infinity).
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members in the order they are written (and read).
    case object([(String, JSONValue)])

    /// `value` as a string, or `null`.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    /// `value` as an integer, or `null`.
    public static func int<I: BinaryInteger>(_ value: I?) -> JSONValue { value.map { .int(Int($0)) } ?? .null }

    /// Compact JSON text on one line (one object per line makes the output JSON Lines).
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The members of an object, in order; `nil` for any other value.
    public var members: [(String, JSONValue)]? {
        if case .object(let m) = self { return m }
        return nil
    }

    /// Equal values: same kind, same members in the same order.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x == y
        case let (.bool(x), .bool(y)): x == y
        case (.null, .null): true
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Appends the compact text to `out` (what ``text`` returns), for callers that build a line
    /// of several parts.
    public func write(to out: inout String) {
        switch self {
        case .string(let s): Self.writeString(s, to: &out)
        case .int(let i): out += String(i)
        case .double(let d):
            // Whole numbers print without a fraction (100, not 100.0); JSON has no NaN or infinity.
            if !d.isFinite { out += "null" }
            else if d == d.rounded(), abs(d) < 1e15 { out += String(Int(d)) }
            else { out += String(d) }
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            Self.writeMembers(members, to: &out)
            out += "}"
        }
    }

    /// Appends the compact text to `bytes` as UTF-8; integers and strings that need no escape
    /// go straight in, without a `String` built first.
    public func write(to bytes: inout [UInt8]) {
        switch self {
        case .int(let i):
            bytes.append(contentsOf: String(i).utf8)  // a small string: no allocation
        case .string(let s) where !Self.needsEscape(s):
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: s.utf8)
            bytes.append(UInt8(ascii: "\""))
        default:
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// Whether `s` has a character that JSON must escape (RFC 8259 §7).
    static func needsEscape(_ s: String) -> Bool {
        s.utf8.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
    }

    /// Appends `"key":value` pairs separated by commas, without braces.
    public static func writeMembers(_ members: some Collection<(String, JSONValue)>, to out: inout String) {
        for (i, (key, value)) in members.enumerated() {
            if i > 0 { out += "," }
            writeString(key, to: &out)
            out += ":"
            value.write(to: &out)
        }
    }

    /// RFC 8259 §7: escape the quote, the backslash and control characters.
    private static func writeString(_ s: String, to out: inout String) {
        // Most strings (names, UUIDs, addresses) need no escape: appended whole, which is several
        // times faster than scalar by scalar (`scan --json` writes a line per report).
        if !needsEscape(s) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
