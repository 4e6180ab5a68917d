// SPDX-License-Identifier: GPL-2.0-or-later
import Yams

/// What the loader needs to know about a YAML node beyond Yams' own accessors.
extension Node {
    /// The scalar's text whatever its style, `nil` for collections.
    var scalarText: String? { scalar?.string }

    /// Whether the scalar was quoted, which makes it a string even if it looks like a number.
    var isQuoted: Bool {
        guard let style = scalar?.style else { return false }
        return style == .singleQuoted || style == .doubleQuoted
    }

    /// `key:` with nothing after it, `~` or `null`: YAML's null, which no field accepts.
    var isNull: Bool {
        guard let scalar, scalar.style == .plain || scalar.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// The value as it appears in messages: scalars as written (quoted ones in quotes, so a
    /// string "12" is told apart from 12), collections summarised, long text cut short.
    var displayValue: String {
        switch self {
        case .scalar(let scalar):
            let text = isNull ? "(no value)" : scalar.string
            let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
            return isQuoted ? "\"\(shown)\"" : shown
        case .mapping(let mapping):
            let keys = mapping.keys.compactMap(\.scalarText).prefix(4).joined(separator: ", ")
            return mapping.count > 4 ? "{\(keys), ...}" : "{\(keys)}"
        case .sequence(let sequence):
            return "[\(sequence.count) item\(sequence.count == 1 ? "" : "s")]"
        case .alias(let alias):
            return "*\(alias.anchor.rawValue)"
        }
    }

    /// A short name for the node's shape, for "expected a number, found a mapping" messages.
    var shapeName: String {
        switch self {
        case .scalar: return isQuoted ? "a quoted string" : "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}
