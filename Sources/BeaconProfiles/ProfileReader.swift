// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import Yams

/// A key and its value, as found in a mapping (or inherited from `defaults:`), so issues can point
/// at the value and messages can name the key.
package struct Field {
    package var key: Node
    package var value: Node

    package init(key: Node, value: Node) {
        self.key = key
        self.value = value
    }
}

/// Reads one composed YAML document into beacon declarations, reporting every problem it finds to
/// its ``IssueSink`` and carrying on, so one run shows all of them.
///
/// The work is split by concern across files: this one holds mappings and scalars;
/// `ProfileReader+Document.swift` the file's shape; `ProfileReader+Entry.swift` one beacon entry;
/// `ProfileReader+Range.swift` and `ProfileReader+Position.swift` the compact forms.
package final class ProfileReader {
    package var sink: IssueSink
    /// "Did you mean" for each unknown key already met, by allowed keys and key: an alias used
    /// thousands of times (or a key misspelt on every entry) is looked up once.
    private var suggestions: [String: String?] = [:]

    package init(file: String) {
        sink = IssueSink(file: file)
    }

    /// The fields of a mapping, keyed by name. Keys not in `allowed` are reported (with the closest
    /// known key, or with `hints[key]` for keys that belong somewhere else) and left out.
    package func fields(
        of mapping: Node.Mapping, at node: Node, allowed: [String], path: String = "", hints: [String: String] = [:]
    ) -> [String: Field] {
        var result: [String: Field] = [:]
        for (key, value) in mapping {
            guard let name = key.scalarText, !key.isNull else {
                sink.report(key, field: path.isEmpty ? "key" : path, "keys must be plain names, not \(key.shapeName)")
                continue
            }
            let qualified = path.isEmpty ? name : "\(path).\(name)"
            guard allowed.contains(name) else {
                let message: String
                if let hint = hints[name] {
                    message = "unknown key here; \(hint)"
                } else if let suggestion = suggestion(for: name, among: allowed) {
                    message = "unknown key; did you mean `\(suggestion)`?"
                } else {
                    message = "unknown key; expected one of: " + allowed.joined(separator: ", ")
                }
                sink.report(sink.location(of: key), field: qualified, value: value.displayValue, message)
                continue
            }
            result[name] = Field(key: key, value: value)
        }
        return result
    }

    private func suggestion(for name: String, among allowed: [String]) -> String? {
        let key = allowed.joined(separator: "\u{0}") + "\u{1}" + name
        if let known = suggestions[key] { return known }
        let found = KeySuggestion.closest(to: name, among: allowed)
        suggestions[key] = .some(found)
        return found
    }

    /// The field's value as a mapping, or `nil` after reporting what it is instead.
    package func mapping(_ field: Field, path: String, expected: String) -> Node.Mapping? {
        if let mapping = field.value.mapping { return mapping }
        sink.report(field.value, field: path, "must be \(expected), not \(field.value.shapeName)")
        return nil
    }

    /// An integer within `range`; `nil` after reporting anything else (quoted strings, fractions,
    /// words, out-of-range values all get the same statement of what is allowed).
    package func integer(_ field: Field, path: String, range: ClosedRange<Int>, unit: String? = nil) -> Int? {
        let allowed = "must be an integer from \(range.lowerBound) to \(range.upperBound)" + (unit.map { " (\($0))" } ?? "")
        guard let text = scalar(field, path: path, allowed: allowed) else { return nil }
        if field.value.isString {
            sink.report(field.value, field: path, allowed + ", not \(field.value.shapeName)")
            return nil
        }
        // `!!float 5` is the float 5.0: refused as any fraction is.
        let reading = field.value.explicitTag == "!!float" ? .fractional : NumberSyntax.integer(text)
        switch reading {
        case .value(let value) where range.contains(value):
            return value
        case .value, .overflow:
            sink.report(field.value, field: path, allowed)
        case .fractional:
            sink.report(field.value, field: path, allowed + "; fractions are not allowed")
        case .notANumber:
            sink.report(field.value, field: path, allowed)
        }
        return nil
    }

    /// A finite decimal number within `range`; `nil` after reporting anything else.
    package func number(_ field: Field, path: String, range: ClosedRange<Double>? = nil, unit: String? = nil) -> Double? {
        var allowed = "must be a number"
        if let unit { allowed += " of \(unit)" }
        if let range { allowed += " from \(NumberText.string(range.lowerBound)) to \(NumberText.string(range.upperBound))" }
        guard let text = scalar(field, path: path, allowed: allowed) else { return nil }
        guard !field.value.isString, let value = NumberSyntax.decimal(text) else {
            sink.report(field.value, field: path, allowed + (field.value.isString ? ", not \(field.value.shapeName)" : ""))
            return nil
        }
        if let range, !range.contains(value) {
            sink.report(field.value, field: path, allowed)
            return nil
        }
        return value
    }

    /// The text of a scalar value (quoted or not); `nil` after reporting a missing value or a
    /// mapping or list where a scalar belongs.
    package func scalar(_ field: Field, path: String, allowed: String) -> String? {
        if field.value.isNull {
            sink.report(field.value, field: path, "has no value; it " + allowed)
            return nil
        }
        guard let text = field.value.scalarText else {
            sink.report(field.value, field: path, allowed + ", not \(field.value.shapeName)")
            return nil
        }
        // A tag changes what a scalar is (`!!bool`, `!!binary`, a custom `!tag`); only the ones
        // that leave it a string or a number are understood, and checked as their untagged forms.
        if let tag = field.value.explicitTag, !["!!str", "!!int", "!!float"].contains(tag) {
            sink.report(field.value, field: path, allowed + ", not \(field.value.shapeName)")
            return nil
        }
        return text
    }

    /// Reports a required key that is absent, at the mapping that should hold it.
    package func missing(_ path: String, in node: Node, _ allowed: String) {
        sink.report(sink.location(of: node), field: path, value: "(missing)", "required; " + allowed)
    }
}
