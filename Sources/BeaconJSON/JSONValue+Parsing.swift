// SPDX-License-Identifier: GPL-2.0-or-later

/// Why a text is not one JSON value (RFC 8259).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    /// The byte offset (from 0) where reading stopped.
    public var offset: Int
    /// What was expected or found there.
    public var reason: String
    public var description: String { "not JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// How deeply arrays and objects may nest: a hostile line cannot make reading recurse without
    /// bound (our own lines nest at most 3 deep).
    public static let maximumDepth = 64

    /// Reads one JSON value (RFC 8259) filling `text` but for white space around it: numbers
    /// without a fraction or exponent that fit an `Int` become `.int`, other numbers
    /// `.double` (a number too large reads as infinity, which callers refuse as they would a
    /// missing one); duplicate keys are kept in order.
    public init(parsing text: some StringProtocol) throws(JSONSyntaxError) {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("text after the value") }
        self = value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: index, reason: reason) }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
        }

        mutating func expect(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
            for byte in word.utf8 {
                guard peek == byte else { throw error("expected \(word)") }
                index += 1
            }
            return value
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth)") }
            guard let b = peek else { throw error("unexpected end") }
            switch b {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            index += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw error("expected :") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth)))
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return .object(members)
                default: throw error("expected , or }")
                }
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth))
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return .array(items)
                default: throw error("expected , or ]")
                }
            }
        }

        mutating func number() throws(JSONSyntaxError) -> JSONValue {
            let start = index
            var integral = true
            if peek == UInt8(ascii: "-") { index += 1 }
            guard let first = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw error("expected a digit") }
            if first == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
            if peek == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard skipDigits() else { throw error("expected a digit after .") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                integral = false
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { throw error("expected a digit in the exponent") }
            }
            let literal = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let i = Int(literal) { return .int(i) }
            guard let d = Double(literal) else { throw JSONSyntaxError(offset: start, reason: "not a number") }
            return .double(d)
        }

        /// Skips decimal digits; whether there was at least one.
        @discardableResult
        mutating func skipDigits() -> Bool {
            let start = index
            while let b = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { index += 1 }
            return index > start
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var runStart = index
            func flushRun(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
            while true {
                guard let b = peek else { throw error("unterminated string") }
                switch b {
                case UInt8(ascii: "\""):
                    flushRun(index)
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flushRun(index)
                    index += 1
                    scalars.append(try escape())
                    runStart = index
                case 0..<0x20:
                    throw error("control character in a string")
                default:
                    index += 1
                }
            }
        }

        mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
            guard let b = peek else { throw error("unterminated escape") }
            index += 1
            switch b {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try hex4()
                if (0xD800..<0xDC00).contains(high), peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low), let s = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) { return s }
                    throw error("bad surrogate pair")
                }
                // A lone surrogate is not a character: read as U+FFFD, as most readers do.
                return Unicode.Scalar(high) ?? "\u{FFFD}"
            default:
                throw error("unknown escape")
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[index]
                let digit: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
                default: throw error("bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
