// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A `name:` or `address:` with placeholders, for entries that declare many beacons at once:
/// `{major}`, `{minor}` and `{index}` (the beacon's 0-based position in its entry), optionally
/// with a width in names (`{minor:3}` pads with zeros to 3 digits; `{minor:03}` means the same).
struct Template: Hashable {
    enum Placeholder: String, CaseIterable {
        case major, minor, index
    }

    enum Part: Hashable {
        case literal(String)
        case placeholder(Placeholder, width: Int)
    }

    var parts: [Part]

    /// The placeholders the text uses.
    var placeholders: Set<Placeholder> {
        Set(parts.compactMap { if case .placeholder(let p, _) = $0 { p } else { nil } })
    }

    var hasPlaceholders: Bool { !placeholders.isEmpty }

    /// Whether the text comes out different for every beacon of an entry with these ranges:
    /// `{index}` always does; otherwise each range with more than one value needs its placeholder.
    func isDistinct(majors: Int, minors: Int) -> Bool {
        let used = placeholders
        return used.contains(.index)
            || ((majors <= 1 || used.contains(.major)) && (minors <= 1 || used.contains(.minor)))
    }

    /// Why a template's text is refused.
    struct SyntaxError: Error {
        var message: String
    }

    /// Parses `text`; `allowsWidth` is false for addresses, whose placeholders have a fixed form.
    init(parsing text: String, allowsWidth: Bool) throws(SyntaxError) {
        let names = Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "}" { throw SyntaxError(message: "a `}` without its `{`; placeholders are \(names)") }
            guard c == "{" else {
                literal.append(c)
                continue
            }
            guard let close = rest.firstIndex(of: "}") else {
                throw SyntaxError(message: "a `{` without its `}`; placeholders are \(names)")
            }
            let inside = rest[..<close]
            rest = rest[rest.index(after: close)...]
            let pieces = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let placeholder = Placeholder(rawValue: String(pieces[0])) else {
                throw SyntaxError(message: "unknown placeholder `{\(inside)}`; placeholders are \(names)")
            }
            var width = 0
            if pieces.count == 2 {
                guard allowsWidth else {
                    throw SyntaxError(message: "`{\(inside)}`: address placeholders take no width; each stands for two octets (`{minor}` → `00:2A`)")
                }
                guard let w = Int(pieces[1]), pieces[1].allSatisfy(\.isNumber), (1...10).contains(w) else {
                    throw SyntaxError(message: "`{\(inside)}`: the width after `:` must be a number of digits from 1 to 10")
                }
                width = w
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.placeholder(placeholder, width: width))
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The values one beacon substitutes.
    struct Values {
        var major: UInt16
        var minor: UInt16
        var index: Int

        func value(of placeholder: Placeholder) -> Int {
            switch placeholder {
            case .major: return Int(major)
            case .minor: return Int(minor)
            case .index: return index
            }
        }
    }

    /// The name form: decimal, zero-padded to the width.
    func renderDecimal(_ values: Values) -> String {
        render { placeholder, width in
            let digits = String(values.value(of: placeholder))
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }

    /// The address form: each placeholder becomes two colon-separated octets, most significant
    /// first (`{minor}` for minor 42 → `00:2A`), so `C0:00:00:01:{minor}` is a whole address.
    func renderOctets(_ values: Values) -> String {
        render { placeholder, _ in
            let value = values.value(of: placeholder) & 0xFFFF
            return Hex.twoDigits(value >> 8) + ":" + Hex.twoDigits(value & 0xFF)
        }
    }

    private func render(_ substitute: (Placeholder, Int) -> String) -> String {
        parts.map { part in
            switch part {
            case .literal(let text): return text
            case .placeholder(let placeholder, let width): return substitute(placeholder, width)
            }
        }.joined()
    }
}

private extension Hex {
    static func twoDigits(_ byte: Int) -> String { string([UInt8(truncatingIfNeeded: byte)]) }
}
