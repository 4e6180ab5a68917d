// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// One command a document shows in a ```sh block, with what the text says it does.
///
/// The convention the docs follow (README.md, "Docs that run"): every command block is fenced as
/// ```sh; each line is a command (a line ending in `\` continues on the next; a trailing `&` or a
/// `# terminal 1` comment changes nothing: the runner decides what runs in the background). In a
/// transcript block, the lines starting with `$ ` are the commands and the lines after each are
/// its output, each of which must appear. An HTML comment right after the block states what
/// each command must print and its exit status, by the command's number in the block:
///
///     <!-- expect
///     1: "room-west"; "room-east"
///     2: exit 65; "steps.at"
///     -->
///
/// Without a line for it a command must exit 0.
struct DocCommand: Sendable, CustomStringConvertible {
    var file: String
    var line: Int
    /// The command as written (continuations joined).
    var text: String
    var expectedStatus: Int32 = 0
    var expectedLines: [String] = []
    var description: String { "\(file):\(line): \(text)" }

    /// The text without a trailing `# comment` or `&`, for classifying and running.
    var command: String {
        var text = self.text
        if let comment = text.range(of: #"\s+#\s.*$"#, options: .regularExpression) { text.removeSubrange(comment) }
        text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("&") && !text.hasSuffix("&&") { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        return text
    }
}

/// A ```sh block of a document: its commands in order, run together (one virtual air).
struct DocBlock: Sendable, CustomTestStringConvertible {
    var file: String
    var line: Int
    var commands: [DocCommand]
    /// Problems with the block's own markup (an expect line for a command that does not exist).
    var markupProblems: [String] = []
    var testDescription: String { "\(file):\(line)" }
}

/// Reads the command blocks of README.md and docs/*.md.
enum DocBlocks {
    /// The documents whose commands must run, relative to the package root.
    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: PackageRoot.path("docs"))) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    static func all() -> [DocBlock] {
        documents.flatMap { document in
            let text = (try? String(contentsOfFile: PackageRoot.path(document), encoding: .utf8)) ?? ""
            return blocks(in: text, file: document)
        }
    }

    /// Every fenced block of `text` with its language and first line number (1-based, the fence's).
    static func fencedBlocks(in text: String) -> [(language: String, line: Int, body: [String], after: [String])] {
        let lines = text.components(separatedBy: "\n")
        var result: [(String, Int, [String], [String])] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```") else { index += 1; continue }
            let language = String(lines[index].dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let start = index
            index += 1
            while index < lines.count && !lines[index].hasPrefix("```") { index += 1 }
            result.append((language, start + 1, Array(lines[(start + 1)..<min(index, lines.count)]), Array(lines[min(index + 1, lines.count)...])))
            index += 1
        }
        return result
    }

    static func blocks(in text: String, file: String) -> [DocBlock] {
        fencedBlocks(in: text).filter { $0.language == "sh" }.map { fence in
            var block = DocBlock(file: file, line: fence.line, commands: commands(fence.body, file: file, firstLine: fence.line + 1))
            applyExpectations(fence.after, to: &block)
            return block
        }
    }

    /// The commands of a block's lines: `\` continuations joined; in a transcript (any `$ `
    /// line), only the `$ ` lines, each expecting the lines shown after it.
    static func commands(_ body: [String], file: String, firstLine: Int) -> [DocCommand] {
        let transcript = body.contains { $0.hasPrefix("$ ") }
        var commands: [DocCommand] = []
        var pending: (line: Int, text: String)?
        for (offset, raw) in body.enumerated() {
            let number = firstLine + offset
            if transcript {
                if raw.hasPrefix("$ ") {
                    commands.append(DocCommand(file: file, line: number, text: String(raw.dropFirst(2))))
                } else if !raw.trimmingCharacters(in: .whitespaces).isEmpty, !commands.isEmpty {
                    commands[commands.count - 1].expectedLines.append(raw)
                }
                continue
            }
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if pending == nil && (trimmed.isEmpty || trimmed.hasPrefix("#")) { continue }
            var current = pending ?? (number, "")
            if trimmed.hasSuffix("\\") {
                current.text += String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces) + " "
                pending = current
            } else {
                current.text += trimmed
                pending = nil
                commands.append(DocCommand(file: file, line: current.line, text: current.text))
            }
        }
        if transcript {
            // A transcript's `echo "exit $?"` shows the status; the shown line is the expectation.
            for index in commands.indices {
                if let exit = commands[index].expectedLines.last(where: { $0.hasPrefix("exit ") }), let status = Int32(exit.dropFirst(5)) {
                    commands[index].expectedStatus = status
                }
            }
        }
        return commands
    }

    /// The `;`-separated items of an expect line; a `;` inside a quoted line belongs to it.
    static func items(_ text: String) -> [String] {
        var items: [String] = []
        var pending = ""
        for piece in text.split(separator: ";", omittingEmptySubsequences: false) {
            pending = pending.isEmpty ? String(piece) : pending + ";" + piece
            let item = pending.trimmingCharacters(in: .whitespaces)
            if !item.hasPrefix("\"") || (item.count >= 2 && item.hasSuffix("\"")) {
                if !item.isEmpty { items.append(item) }
                pending = ""
            }
        }
        if !pending.isEmpty { items.append(pending.trimmingCharacters(in: .whitespaces)) }
        return items
    }

    /// Reads the `<!-- expect … -->` comment that follows a block (blank lines between allowed).
    static func applyExpectations(_ after: [String], to block: inout DocBlock) {
        guard let first = after.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
              after[first].hasPrefix("<!-- expect") else { return }
        var lines: [String] = [String(after[first].dropFirst("<!-- expect".count))]
        var index = first
        while !lines.last!.contains("-->") && index + 1 < after.count {
            index += 1
            lines.append(after[index])
        }
        for line in lines {
            let text = line.replacingOccurrences(of: "-->", with: "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let colon = text.firstIndex(of: ":"), let number = Int(text[..<colon]),
                  block.commands.indices.contains(number - 1) else {
                block.markupProblems.append("\(block.file):\(block.line): expect line names no command of the block: \(text)")
                continue
            }
            for item in items(String(text[text.index(after: colon)...])) {
                if item.hasPrefix("exit "), let status = Int32(item.dropFirst(5)) {
                    block.commands[number - 1].expectedStatus = status
                } else if item.count >= 2, item.hasPrefix("\""), item.hasSuffix("\"") {
                    block.commands[number - 1].expectedLines.append(String(item.dropFirst().dropLast()))
                } else {
                    block.markupProblems.append("\(block.file):\(block.line): expect item is neither `exit N` nor a \"quoted line\": \(item)")
                }
            }
        }
    }
}
