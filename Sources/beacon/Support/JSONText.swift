// SPDX-License-Identifier: GPL-2.0-or-later

/// A JSON value written with keys in the order given, so that output such as
/// `{"uuid":…,"major":…,"minor":…,"power":…}` reads the way the documentation shows it
/// (Foundation's `JSONEncoder` can only sort keys alphabetically or not at all).
enum JSONValue {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// `value` as a string, or `null`.
    static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    /// `value` as an integer, or `null`.
    static func int<I: BinaryInteger>(_ value: I?) -> JSONValue { value.map { .int(Int($0)) } ?? .null }

    /// Compact JSON text on one line (one object per line makes the output JSON Lines).
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
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
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// RFC 8259 §7: escape the quote, the backslash and control characters.
    private static func writeString(_ s: String, to out: inout String) {
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
