// SPDX-License-Identifier: GPL-2.0-or-later
// libyaml's event parser, which Yams is built on (Yams keeps its events private). Yams' composer
// hands every use of an alias the anchored node itself, so the tree it builds can stand for far
// more nodes than the text has (a "billion laughs" document of a few hundred bytes), and Yams
// hashes mapping keys as it composes: an aliased key is hashed at its full expanded size.
internal import CYaml
import Yams

/// Measures what a YAML document expands to, aliases counted each time they are used, from
/// libyaml's events (cost: one pass over the text, whatever the aliases multiply) before Yams
/// composes it, so a small file that stands for millions of nodes is refused at once instead of
/// keeping the reader busy for minutes.
public enum YAMLExpansion {
    /// The most nodes that aliases may add to a document, each use counting every node it
    /// repeats. The text's own nodes are bounded by ``ProfileLoader/maximumFileSize``; this keeps
    /// the expanded document within the same order of work (a scenario's 100,000 changes or a
    /// fleet's 65,536 beacons written out by hand).
    public static let maximumAliasedNodes = 1_000_000

    /// The issue of a document whose aliases go past ``maximumAliasedNodes``, at the alias that
    /// does; nil when it stays within it, or when the text is not valid YAML (the composer then
    /// reports where).
    static func issue(in text: String, file: String) -> ProfileIssue? {
        var text = text
        return text.withUTF8 { bytes in scan(bytes, file: file) }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, file: String) -> ProfileIssue? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)

        /// The expanded size of each anchored node (anchors are per document; a later anchor of
        /// the same name shadows the earlier one, as in Yams).
        var anchored: [String: Int] = [:]
        /// The expanded size of each collection still open, innermost last, with its anchor.
        var open: [(anchor: String?, size: Int)] = []
        var aliased = 0

        func add(_ size: Int) {
            if open.isEmpty { return }
            open[open.count - 1].size += size
        }
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
            case YAML_DOCUMENT_START_EVENT:
                anchored = [:]
                open = []
            case YAML_SCALAR_EVENT:
                if let anchor = name(event.data.scalar.anchor) { anchored[anchor] = 1 }
                add(1)
            case YAML_SEQUENCE_START_EVENT:
                open.append((name(event.data.sequence_start.anchor), 1))
            case YAML_MAPPING_START_EVENT:
                open.append((name(event.data.mapping_start.anchor), 1))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let closed = open.popLast() else { return nil }
                if let anchor = closed.anchor { anchored[anchor] = closed.size }
                add(closed.size)
            case YAML_ALIAS_EVENT:
                // An alias of an anchor not (yet) defined is the composer's error to report.
                let size = name(event.data.alias.anchor).flatMap { anchored[$0] } ?? 1
                aliased += size
                if aliased > maximumAliasedNodes {
                    let mark = event.start_mark
                    return ProfileIssue(
                        location: SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1),
                        field: "yaml", value: "more than \(maximumAliasedNodes) nodes",
                        message: "YAML aliases may repeat at most \(maximumAliasedNodes) nodes in all (each use counts every node it repeats); this alias goes past that. Write the repeated part once (a scenario block's `repeat:`, a fleet's `defaults:` or ranges)")
                }
                add(size)
            default:
                break
            }
        }
    }

    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

/// The text was not composed: why is in the ``IssueSink`` (not YAML, or aliases past the limit).
package struct DocumentRefused: Error {}

extension IssueSink {
    /// The root of `text` as Yams composes it, once its aliases are known to stay within
    /// ``YAMLExpansion/maximumAliasedNodes``; nil for an empty document. Every YAML text the tool
    /// reads is composed here.
    package mutating func compose(_ text: String) throws(DocumentRefused) -> Node? {
        // A byte order mark (Windows editors save UTF-8 with one) is not part of the document;
        // libyaml, told the text is UTF-8, would read it as the start of the first key.
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text = String(text.unicodeScalars.dropFirst()) }
        if let issue = YAMLExpansion.issue(in: text, file: file) {
            report(issue.location, field: issue.field, value: issue.value, issue.message)
            throw DocumentRefused()
        }
        do {
            return try Yams.compose(yaml: text)
        } catch {
            reportSyntaxError(error, in: text)
            throw DocumentRefused()
        }
    }
}
