// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Equatable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// The system calls a live view makes, behind a protocol (as HCITransport's `SystemCalls`) so
/// tests can give it any size.
public protocol TerminalCalls: Sendable {
    /// Whether `fd` is a terminal (isatty(3)).
    func isTerminal(_ fd: Int32) -> Bool
    /// The size of the terminal on `fd` (TIOCGWINSZ), nil when it is not a terminal or reports 0×0.
    func size(of fd: Int32) -> TerminalSize?
}

/// The real calls.
public struct LiveTerminalCalls: TerminalCalls {
    public init() {}

    public func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    public func size(of fd: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
