// SPDX-License-Identifier: GPL-2.0-or-later

/// Long lines of prose (the plan before a run, its warnings and notes) broken at spaces to fit a
/// width, so that an 80-column terminal or a `# `-prefixed dry run does not wrap them mid-word.
/// Continuation lines are indented two spaces past the line's own indentation; a word longer
/// than the width stays whole.
public enum LineWrapping {
    /// 80 columns less the `# ` a dry run puts before each line.
    public static let planWidth = 78

    /// `line` broken into lines of at most `width` characters (a longer word stays whole).
    public static func wrap(_ line: String, width: Int = planWidth) -> [String] {
        guard line.count > width else { return [line] }
        let indent = String(line.prefix { $0 == " " })
        let hanging = indent + "  "
        var out: [String] = []
        var current = indent
        for word in Self.words(line.dropFirst(indent.count)) {
            let atStart = current == indent || current == hanging
            if !atStart, current.count + 1 + word.count > width {
                out.append(current)
                current = hanging
            }
            current += (current == indent || current == hanging ? "" : " ") + word
        }
        out.append(current)
        return out
    }

    /// The words of `text`, a number kept with the word after it ("850 ms", "(goal 1 s)",
    /// "3 events"), so that no line ends in a number whose unit starts the next.
    public static func words(_ text: Substring) -> [String] {
        var words: [String] = []
        var joinNext = false
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if joinNext, let last = words.popLast() { words.append(last + " " + word) } else { words.append(String(word)) }
            let core = word.drop { !$0.isNumber }
            joinNext = !core.isEmpty && core.allSatisfy { $0.isNumber || $0 == "." || $0 == "–" }
                && word.first.map { $0.isNumber || "(+−-~".contains($0) } == true
        }
        return words
    }
}
