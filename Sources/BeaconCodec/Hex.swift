// SPDX-License-Identifier: GPL-2.0-or-later

/// Hex text ↔ bytes, for the CLI, the golden vectors and tests (not used on hot paths).
public enum Hex {
    /// Upper-case hex, optionally with a separator between bytes.
    public static func string(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
        var out = ""
        var first = true
        for b in bytes {
            if !first { out += separator }
            first = false
            out.append(HexDigit.upper(b >> 4))
            out.append(HexDigit.upper(b & 0x0F))
        }
        return out
    }

    /// Parses hex text. Accepts an optional `0x` prefix, and spaces, colons, hyphens and
    /// underscores between bytes (so `02 01 06`, `02:01:06` and `0x020106` all work).
    /// Returns `nil` for an odd number of digits or any other character.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        var out: [UInt8] = []
        out.reserveCapacity(body.utf8.count / 2)
        var pending: UInt8? = nil
        for c in body.utf8 {
            if c == UInt8(ascii: " ") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: "\t") {
                guard pending == nil else { return nil }
                continue
            }
            guard let v = HexDigit.value(c) else { return nil }
            if let hi = pending {
                out.append(hi << 4 | v)
                pending = nil
            } else {
                pending = v
            }
        }
        return pending == nil ? out : nil
    }

    /// The character offset where `text` stops being hex in ``bytes(_:)``'s grammar: the first
    /// character that is neither a digit nor a separator, a separator splitting a byte, or the
    /// end for an odd digit count. For text that is hex, its character count.
    public static func firstFault(in text: some StringProtocol) -> Int {
        var offset = 0
        var pendingDigit = false
        var rest = Substring(text)
        if rest.hasPrefix("0x") || rest.hasPrefix("0X") {
            rest = rest.dropFirst(2)
            offset = 2
        }
        for c in rest {
            if c == " " || c == ":" || c == "-" || c == "_" || c == "\t" {
                if pendingDigit { return offset }
            } else {
                // ASCII only, as `bytes` reads: `Character.isHexDigit` also holds for fullwidth
                // digits such as "０", which would put the fault past them.
                guard c.isASCII, c.isHexDigit else { return offset }
                pendingDigit.toggle()
            }
            offset += 1
        }
        return offset
    }
}
