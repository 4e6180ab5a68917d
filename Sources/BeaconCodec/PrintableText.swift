// SPDX-License-Identifier: GPL-2.0-or-later

extension String {
    /// The text with every control character (C0, DEL, C1) written as an escape: `\n`, `\r`,
    /// `\t`, otherwise `\u{1B}`; likewise the line and paragraph separators (U+2028, U+2029) and
    /// the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
    /// File names, keys and values from outside (a file, a broker's message, a peer) go through
    /// this before they reach a message or a line of output, so a name holding a newline cannot
    /// forge a second `file:1:1:` line, an ESC cannot drive the terminal (its title, the screen)
    /// and a U+202E cannot show what follows it reversed. Backslashes are left alone, which makes escaping an
    /// already escaped text a no-op (messages nest: a location inside an issue line).
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isEscapedInText) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            guard scalar.isEscapedInText else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls (general category Cc).
    var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }

    /// Control characters and the characters that break or reorder a line without being
    /// controls: U+2028, U+2029, U+202A-U+202E, U+2066-U+2069.
    var isEscapedInText: Bool {
        isControlCharacter || value == 0x2028 || value == 0x2029 || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
