// SPDX-License-Identifier: GPL-2.0-or-later

/// Every subcommand's help ends with its examples, where a reader looks for them.
///
/// They are written as the last paragraph of the command's discussion ("Examples:" and indented
/// `beacon …` lines), so the man page, generated from the same definitions, shows them in the
/// command's description; ArgumentParser prints the discussion before USAGE and OPTIONS, so the
/// help moves that paragraph to its end, as EXAMPLES.
enum HelpExamples {
    /// `help` with its "Examples:" paragraph moved to the end; unchanged without one.
    static func atTheEnd(_ help: String) -> String {
        var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let heading = lines.firstIndex(of: "Examples:") else { return help }
        var end = heading + 1
        while end < lines.count && (lines[end].isEmpty || lines[end].hasPrefix(" ")) { end += 1 }
        // The paragraph's blank lines go with it, but the one that separates what follows.
        while end > heading + 1 && lines[end - 1].isEmpty { end -= 1 }
        let examples = lines[(heading + 1)..<end].filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        lines.removeSubrange(heading..<end)
        if heading > 0 && heading < lines.count && lines[heading - 1].isEmpty && lines[heading].isEmpty { lines.remove(at: heading) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return (lines + ["", "EXAMPLES:"] + examples.map { "  " + $0.trimmingCharacters(in: .whitespaces) }).joined(separator: "\n")
    }
}
