// SPDX-License-Identifier: GPL-2.0-or-later
import Yams

/// Collects the issues of one file. Values inherited from `defaults:` are checked once per beacon,
/// so the same issue can be found many times; it is kept once.
package struct IssueSink {
    package let file: String
    package private(set) var issues: [ProfileIssue] = []
    private var seen: Set<ProfileIssue> = []

    init(file: String) {
        self.file = file
    }

    /// The location of a node, or the top of the file for nodes Yams built without a mark.
    package func location(of node: Node?) -> SourceLocation {
        guard let mark = node?.mark else { return SourceLocation(file: file, line: 1, column: 1) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    package mutating func report(_ location: SourceLocation, field: String, value: String, _ message: String) {
        let issue = ProfileIssue(location: location, field: field, value: value, message: message)
        if seen.insert(issue).inserted { issues.append(issue) }
    }

    /// Reports a problem with `node`'s value, at `node`.
    package mutating func report(_ node: Node, field: String, _ message: String) {
        report(location(of: node), field: field, value: node.displayValue, message)
    }

    /// Issues in file order (line, then column); equal positions keep the order they were found in.
    package var sortedIssues: [ProfileIssue] { issues.inReadingOrder() }
}
