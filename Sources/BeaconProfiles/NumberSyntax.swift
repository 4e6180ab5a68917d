// SPDX-License-Identifier: GPL-2.0-or-later

/// Strict number spellings. YAML resolvers accept more (`0o17`, `1_000`, `.inf`, sexagesimal
/// `1:30`); a beacon profile has no use for them, and refusing them catches typos.
enum NumberSyntax {
    /// What an integer scalar turned out to be.
    enum IntegerReading: Equatable {
        case value(Int)
        /// Integer syntax, but too large for `Int`: certainly out of any field's range.
        case overflow
        /// A number with a fraction or exponent (`1.5`, `1e3`).
        case fractional
        case notANumber
    }

    /// Reads `123`, `-70`, `+4` or hexadecimal `0x1A` (the form Bluetooth documents use).
    static func integer(_ text: String) -> IntegerReading {
        var body = Substring(text)
        var negative = false
        if let sign = body.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            let digits = body.dropFirst(2)
            guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return .notANumber }
            guard let magnitude = Int(digits, radix: 16) else { return .overflow }
            return .value(negative ? -magnitude : magnitude)
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return decimal(text) != nil ? .fractional : .notANumber
        }
        guard let magnitude = Int(body) else { return .overflow }
        return .value(negative ? -magnitude : magnitude)
    }

    /// Reads a finite decimal number: `100`, `-1.5`, `.5`, `2.5e3`. No hex, no `inf`, no `nan`.
    static func decimal(_ text: String) -> Double? {
        var rest = Substring(text)
        if let sign = rest.first, sign == "-" || sign == "+" { rest = rest.dropFirst() }
        let mantissaEnd = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) ?? rest.endIndex
        let mantissa = rest[..<mantissaEnd]
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.allSatisfy(isDigits), parts.contains(where: { !$0.isEmpty }) else { return nil }
        if mantissaEnd != rest.endIndex {
            var exponent = rest[rest.index(after: mantissaEnd)...]
            if let sign = exponent.first, sign == "-" || sign == "+" { exponent = exponent.dropFirst() }
            guard !exponent.isEmpty, isDigits(exponent) else { return nil }
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
