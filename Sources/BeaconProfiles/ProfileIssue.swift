// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One problem in a profile file: where, which field, the value found, and what is allowed.
public struct ProfileIssue: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    /// The key at fault (`major`, `position.x`, `minor.to`), or a pseudo-field for problems that are
    /// not one key's: `yaml` (syntax), `file` (unreadable, empty), `document` (wrong top-level shape),
    /// `identity` (duplicate uuid/major/minor).
    public var field: String
    /// The offending value as written (`(missing)` when the key is absent).
    public var value: String
    /// What is wrong and what is allowed.
    public var message: String

    public init(location: SourceLocation, field: String, value: String, message: String) {
        self.location = location
        self.field = field
        self.value = value
        self.message = message
    }

    /// Whether the file could not be read at all (missing, a directory, permission denied, not a
    /// file the read accepts), as opposed to something wrong in what was read: the commands exit
    /// 1 for the first and 65 for the second.
    public var isUnreadableFile: Bool { field == "file" && message.hasPrefix("cannot read") }

    /// `file:line:column: field: value: message`, e.g.
    /// `profiles/x.yaml:7:12: major: 70000: must be an integer from 0 to 65535`. Control
    /// characters (in the file name, a key, a value) are escaped: one issue is one line.
    public var description: String { "\(location): \(field): \(value): \(message)".escapingControlCharacters }
}

extension Sequence<ProfileIssue> {
    /// The issues in reading order: by file (the files in `files` first, in that order; others
    /// after, in the order they first appear), then line, then column. Issues at the same
    /// place keep the order they were found in; an issue found twice (a scenario's fleet file
    /// that is also named on its own) is kept once.
    public func inReadingOrder(files: [String] = []) -> [ProfileIssue] {
        var rank: [String: Int] = [:]
        for file in files where rank[file] == nil { rank[file] = rank.count }
        var seen: Set<ProfileIssue> = []
        let issues = filter { seen.insert($0).inserted }
        for issue in issues where rank[issue.location.file] == nil { rank[issue.location.file] = rank.count }
        return issues.enumerated().sorted { a, b in
            let (la, lb) = (a.element.location, b.element.location)
            if la.file != lb.file { return rank[la.file]! < rank[lb.file]! }
            if la.line != lb.line { return la.line < lb.line }
            if la.column != lb.column { return la.column < lb.column }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// Every problem found in one or more profile files; thrown instead of stopping at the first.
public struct ProfileErrors: Error, Sendable, CustomStringConvertible {
    public var issues: [ProfileIssue]

    public init(issues: [ProfileIssue]) {
        self.issues = issues
    }

    /// One issue per line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
