// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

/// `escapingControlCharacters`: someone else's text (a file's, a broker's, a peer's) on one line.
struct PrintableTextTests {
    @Test("plain text, accents, emoji and backslashes pass unchanged")
    func plainTextUnchanged() {
        for text in ["door (a-1-2): on air", "Café Zürich 東京 🚉", #"C:\path"#, ""] {
            #expect(text.escapingControlCharacters == text)
        }
    }

    @Test("C0, DEL, C1, separators and bidirectional controls become visible escapes", arguments: [
        ("a\u{1B}[2Jb", #"a\u{1B}[2Jb"#), ("\r\nFAKE", #"\r\nFAKE"#), ("t\tab", #"t\tab"#), ("\u{7}", #"\u{7}"#),
        ("\u{7F}\u{9B}", #"\u{7F}\u{9B}"#), ("x\u{2028}y\u{2029}", #"x\u{2028}y\u{2029}"#),
        ("abc\u{202E}fed", #"abc\u{202E}fed"#), ("\u{202A}\u{2066}i\u{2069}", #"\u{202A}\u{2066}i\u{2069}"#), ("\u{0}", #"\u{0}"#),
    ])
    func controlsEscaped(text: String, shown: String) {
        #expect(text.escapingControlCharacters == shown)
        #expect(shown.escapingControlCharacters == shown, "escaping twice changes nothing")
    }
}
