// SPDX-License-Identifier: GPL-2.0-or-later

extension String {
    /// The text with every control character (C0, DEL, C1) written as an escape: `\n`, `\r`,
    /// `\t`, otherwise `\u{1B}`. File names, keys and values from outside go through this before
    /// they reach a message, so a name holding a newline cannot forge a second `file:1:1:` line
    /// and an ESC cannot drive the terminal. Backslashes are left alone, which makes escaping an
    /// already escaped text a no-op (messages nest: a location inside an issue line).
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            guard scalar.isControlCharacter else {
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
}
