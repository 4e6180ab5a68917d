// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

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

    /// `file:line:column`, the form compilers use, so editors and terminals can jump to it
    /// (control characters in the file name escaped).
    public var description: String { "\(file.escapingControlCharacters):\(line):\(column)" }
}
