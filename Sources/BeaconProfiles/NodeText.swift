// SPDX-License-Identifier: GPL-2.0-or-later
import Yams

/// What the loader needs to know about a YAML node beyond Yams' own accessors.
extension Node {
    /// The scalar's text whatever its style, `nil` for collections.
    package var scalarText: String? { scalar?.string }

    /// Whether the scalar was quoted, which makes it a string even if it looks like a number.
    var isQuoted: Bool {
        guard let style = scalar?.style else { return false }
        return style == .singleQuoted || style == .doubleQuoted
    }

    /// The tag written before a plain scalar that changes what it would otherwise be (`!!str 5`,
    /// `!!float 5`, `!custom x`), with the standard prefix shortened to `!!`; `nil` when there is
    /// none or it says what the plain text resolves to anyway (`!!int 5`). Yams resolves a tag in
    /// place when it hashes a node (mapping keys), so a non-empty tag alone does not mean one was
    /// written. (libyaml gives every quoted scalar the `str` tag: quoting is told by its style.)
    var explicitTag: String? {
        guard let scalar, !isQuoted else { return nil }
        let name = scalar.tag.description
        // Untagged and not yet resolved: the common case, with no regular expression to run.
        guard !name.isEmpty else { return nil }
        guard name != Resolver.default.resolveTag(of: Node(scalar.string)).rawValue else { return nil }
        let standard = "tag:yaml.org,2002:"
        return name.hasPrefix(standard) ? "!!" + name.dropFirst(standard.count) : name
    }

    /// Whether the scalar is a string whatever it looks like: quoted, or tagged `!!str`. Such a
    /// value is refused where a number belongs, as a quoted "5" is.
    var isString: Bool { isQuoted || explicitTag == "!!str" }

    /// `key:` with nothing after it, `~` or `null`: YAML's null, which no field accepts.
    package var isNull: Bool {
        guard let scalar, scalar.style == .plain || scalar.style == .any,
              ["", "~", "null", "Null", "NULL"].contains(scalar.string) else { return false }
        return explicitTag == nil || explicitTag == "!!null"
    }

    /// The value as it appears in messages: scalars as written (quoted ones in quotes, so a
    /// string "12" is told apart from 12), collections summarised, long text cut short.
    var displayValue: String {
        switch self {
        case .scalar(let scalar):
            let text = isNull ? "(no value)" : scalar.string
            let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
            if let explicitTag { return "\(explicitTag) \(shown)" }
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
    package var shapeName: String {
        switch self {
        case .scalar:
            if let explicitTag { return explicitTag == "!!str" ? "a string (tagged !!str)" : "a value tagged \(explicitTag)" }
            return isQuoted ? "a quoted string" : "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}
