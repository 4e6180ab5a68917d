// SPDX-License-Identifier: GPL-2.0-or-later

/// A place in a profile file: the file as it was named to the loader, and a 1-based line and column
/// (columns count Unicode scalars, as libyaml does).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers use, so editors and terminals can jump to it.
    public var description: String { "\(file):\(line):\(column)" }
}
