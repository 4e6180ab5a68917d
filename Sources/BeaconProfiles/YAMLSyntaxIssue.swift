// SPDX-License-Identifier: GPL-2.0-or-later
import Yams

extension IssueSink {
    /// Turns what Yams throws for text that is not YAML (or not one document) into an issue with
    /// the line and column libyaml reported.
    mutating func reportSyntaxError(_ error: any Error, in text: String) {
        var location = SourceLocation(file: file, line: 1, column: 1)
        var problem = "not valid YAML"
        func at(_ mark: Mark) { location = SourceLocation(file: file, line: mark.line, column: mark.column) }
        func explain(_ context: YamlError.Context?, _ text: String) {
            // libyaml's context ("while parsing a block mapping") reads well before the problem.
            problem = [context?.text, text].compactMap { $0 }.joined(separator: ": ")
        }
        switch error as? YamlError {
        case .scanner(let context, let text, let mark, _), .parser(let context, let text, let mark, _),
             .composer(let context, let text, let mark, _):
            at(mark)
            explain(context, text)
        case .duplicatedKeysInMapping(let duplicates, let context):
            at(context.mark)
            problem = "a key appears twice in the same mapping: " + duplicates.map { "`\($0)`" }.joined(separator: ", ")
        case .reader(let text, let offset, _, _):
            if let offset { location = Self.location(ofCharacter: offset, in: text, file: file) }
            problem = text
        case .some(let other):
            problem = String(describing: other)
        case nil:
            problem = String(describing: error)
        }
        report(location, field: "yaml", value: Self.lineText(location.line, in: text), "YAML syntax error: " + problem)
    }

    /// The line an error is on, trimmed and cut short, so the report shows what was written.
    static func lineText(_ line: Int, in text: String) -> String {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard line >= 1, line <= lines.count, !(line == lines.count && lines[line - 1].isEmpty) else {
            return "(end of file)"
        }
        let trimmed = lines[line - 1].trimmingPrefix(while: \.isWhitespace)
        let shown = trimmed.count > 60 ? String(trimmed.prefix(57)) + "..." : String(trimmed)
        return shown.isEmpty ? "(blank line)" : shown
    }

    /// Line and column (from 1) of the `offset`-th character.
    static func location(ofCharacter offset: Int, in text: String, file: String) -> SourceLocation {
        var line = 1
        var column = 1
        for c in text.prefix(offset) {
            if c.isNewline { line += 1; column = 1 } else { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}
