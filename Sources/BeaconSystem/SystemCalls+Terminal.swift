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

/// The live terminal calls, as defaults: a test double gives a live view any size by overriding
/// ``SystemCalls/terminalSize(of:)`` alone.
extension SystemCalls {
    public func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    public func terminalSize(of fd: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    public func terminalAttributes(of fd: Int32) -> Result<termios, Errno> {
        var attributes = termios()
        return tcgetattr(fd, &attributes) == 0 ? .success(attributes) : .failure(.current)
    }

    public func setTerminalAttributes(of fd: Int32, to attributes: termios) -> Result<Void, Errno> {
        var attributes = attributes
        return tcsetattr(fd, TCSANOW, &attributes) == 0 ? .success(()) : .failure(.current)
    }

    public func discardTerminalQueues(_ fd: Int32) -> Result<Void, Errno> {
        tcflush(fd, TCIOFLUSH) == 0 ? .success(()) : .failure(.current)
    }
}

extension SystemCalls {
    /// Whether `fd` is a terminal whose other end has gone (a closed window, a lost ssh
    /// connection): it then polls as hung up. Anything that is not a terminal (a pipe at end of
    /// file is no hangup) is `false`.
    public func terminalHasHungUp(_ fd: Int32) -> Bool {
        guard case .success(let info) = status(of: fd), info.st_mode & S_IFMT == S_IFCHR else { return false }
        guard case .success(let events) = poll(fd, for: 0, milliseconds: 0) else { return false }
        return events & Int16(POLLHUP | POLLERR) != 0
    }
}

/// The three standard descriptors.
public enum StandardStream {
    public static let input: Int32 = STDIN_FILENO
    public static let output: Int32 = STDOUT_FILENO
    public static let error: Int32 = STDERR_FILENO
    /// Input, output and error.
    public static let all = [input, output, error]
}
