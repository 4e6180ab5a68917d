// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The one layer over the system calls beacon makes (transports, files, terminals, clocks), so
/// tests can replace any of them (for example make `write` fail with ENOSPC, or give a terminal
/// any size). Like swift-system, every call returns a typed ``Errno`` instead of reading the
/// global, and a call interrupted by a signal (EINTR) is retried here, once for everyone.
///
/// Every call has the live implementation as its default, so a test double overrides only the
/// calls it changes; ``LiveSystemCalls`` overrides none.
public protocol SystemCalls: Sendable {
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno>
    /// Waits until `fd` is readable (or hung up) for at most `milliseconds` (−1: forever).
    /// `true` if readable, `false` on timeout.
    func pollReadable(_ fd: Int32, milliseconds: Int32) -> Result<Bool, Errno>
    func close(_ fd: Int32)
    /// Shuts a socket down both ways, so a thread waiting on it wakes up (EOF), while the
    /// descriptor itself stays allocated; nothing for a descriptor that is not a socket.
    func shutdown(_ fd: Int32)

    // Files (see SystemCalls+Files.swift for the live calls, which these default to). `directory`
    // is a descriptor the path is relative to (`AT_FDCWD`: the working directory).
    func open(_ path: String, flags: Int32, mode: mode_t, relativeTo directory: Int32) -> Result<Int32, Errno>
    /// `fstatat(2)`; `followingLinks: false` is `lstat(2)`.
    func status(_ path: String, relativeTo directory: Int32, followingLinks: Bool) -> Result<stat, Errno>
    func status(of fd: Int32) -> Result<stat, Errno>
    func makeDirectory(_ path: String, mode: mode_t) -> Result<Void, Errno>
    func synchronize(_ fd: Int32) -> Result<Void, Errno>
    func truncate(_ fd: Int32, to length: Int) -> Result<Void, Errno>
    func changeMode(_ fd: Int32, to mode: mode_t) -> Result<Void, Errno>
    func changeOwner(_ fd: Int32, user: uid_t, group: gid_t) -> Result<Void, Errno>
    func rename(_ from: String, to: String, relativeTo directory: Int32) -> Result<Void, Errno>
    func unlink(_ name: String, relativeTo directory: Int32) -> Result<Void, Errno>
    /// The names in the directory open at `fd` (without `.` and `..`); `fd` stays open.
    func directoryEntries(_ fd: Int32) -> Result<[String], Errno>
    /// The target of the symbolic link at `path`.
    func linkTarget(_ path: String) -> String?
    var effectiveUserID: uid_t { get }
    /// Whether this process may access `path` as `mode` asks (`access(2)`: `R_OK`, `W_OK`, …),
    /// without opening it (opening a FIFO, even to look, releases a writer waiting in its open).
    func checkAccess(_ path: String, mode: Int32) -> Result<Void, Errno>
    /// A new socket (`socket(2)`); add `SOCK_CLOEXEC` to `type` so that programs we start do not inherit it.
    func openSocket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, Errno>
    /// Binds socket `fd` to the address in `address` (a `sockaddr` of the socket's family).
    func bind(_ fd: Int32, to address: UnsafeRawBufferPointer) -> Result<Void, Errno>
    /// Sends `datagram` on socket `fd` to the address in `address` (`sendto(2)` with `flags`, e.g.
    /// `MSG_DONTWAIT`): how many bytes were sent.
    func send(_ fd: Int32, _ datagram: UnsafeRawBufferPointer, to address: UnsafeRawBufferPointer, flags: Int32) -> Result<Int, Errno>
    /// Receives one datagram (or stream bytes) on socket `fd` into `buffer` (`recv(2)` with
    /// `flags`, e.g. `MSG_DONTWAIT`): how many bytes were received.
    func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32) -> Result<Int, Errno>
    /// Connects socket `fd` to the address in `address` (`connect(2)`). Not retried on EINTR (a
    /// second connect would fail with EALREADY): on a non-blocking socket it fails at once with
    /// EINPROGRESS instead, and ``SystemCalls/poll(_:for:milliseconds:)`` then ``SystemCalls/intOption(_:level:name:)``
    /// of `SO_ERROR` say how it ended.
    func connect(_ fd: Int32, to address: UnsafeRawBufferPointer) -> Result<Void, Errno>
    /// The value of an `int` socket option (`getsockopt(2)`), e.g. `SO_ERROR`.
    func intOption(_ fd: Int32, level: Int32, name: Int32) -> Result<Int32, Errno>
    /// The file status flags of `fd` (`fcntl(F_GETFL)`), e.g. `O_NONBLOCK`.
    func statusFlags(of fd: Int32) -> Result<Int32, Errno>
    /// Sets the file status flags of `fd` (`fcntl(F_SETFL)`).
    func setStatusFlags(of fd: Int32, to flags: Int32) -> Result<Void, Errno>
    /// Sets a socket option (`setsockopt(2)`) to the bytes of `value`.
    func setOption(_ fd: Int32, level: Int32, name: Int32, value: UnsafeRawBufferPointer) -> Result<Void, Errno>
    /// A second descriptor for what `fd` is open on (`dup(2)`), close-on-exec.
    func duplicate(_ fd: Int32) -> Result<Int32, Errno>
    /// Waits at most `milliseconds` (−1: forever) for `events` (`POLLIN`, `POLLOUT`; 0 for only
    /// `POLLERR`/`POLLHUP`, which poll(2) always reports) on `fd`: the events that happened, 0
    /// on timeout.
    func poll(_ fd: Int32, for events: Int16, milliseconds: Int32) -> Result<Int16, Errno>

    // Terminals (SystemCalls+Terminal.swift).
    /// Whether `fd` is a terminal (isatty(3)).
    func isTerminal(_ fd: Int32) -> Bool
    /// The size of the terminal on `fd` (TIOCGWINSZ), nil when it is not a terminal or reports 0×0.
    func terminalSize(of fd: Int32) -> TerminalSize?
    /// The terminal settings of `fd` (`tcgetattr(3)`, the `TCGETS` ioctl), e.g. a serial line's.
    func terminalAttributes(of fd: Int32) -> Result<termios, Errno>
    /// Sets the terminal settings of `fd` at once (`tcsetattr(3)` with `TCSANOW`).
    func setTerminalAttributes(of fd: Int32, to attributes: termios) -> Result<Void, Errno>
    /// Discards what the terminal on `fd` has received but not read and what was written but not
    /// sent (`tcflush(3)` with `TCIOFLUSH`).
    func discardTerminalQueues(_ fd: Int32) -> Result<Void, Errno>

    // Clocks and the process (SystemCalls+Process.swift).
    /// The machine's monotonic clock (`CLOCK_MONOTONIC`: one origin for every process).
    func monotonicTime() -> Duration
    /// The wall clock (`CLOCK_REALTIME`), since the Unix epoch.
    func wallClockTime() -> Duration
    /// Makes signal `number` ignored by the process (`SIG_IGN`), e.g. SIGPIPE so that a closed
    /// pipe is an EPIPE of write(2) instead of the end of the process.
    func ignoreSignal(_ number: Int32)
    /// Gives signal `number` its default action again (`SIG_DFL`).
    func restoreDefaultAction(ofSignal number: Int32)
    /// Makes `handler` run on signal `number` (`sigaction(2)` with `SA_RESTART`, nothing else
    /// blocked while it runs). `handler` may only make async-signal-safe calls (``SignalSafe``).
    func handleSignal(_ number: Int32, with handler: @convention(c) (Int32) -> Void) -> Result<Void, Errno>
    /// Unblocks `numbers` in the calling thread (`pthread_sigmask(SIG_UNBLOCK)`), so a handler
    /// can run on it.
    func unblockSignals(_ numbers: [Int32])
    /// A new pipe (`pipe(2)`) whose two ends are non-blocking and close-on-exec: a self-pipe, which
    /// a signal handler writes without ever waiting.
    func makeNonBlockingPipe() -> Result<(read: Int32, write: Int32), Errno>
    /// Sends signal `number` to this process (`kill(getpid(), number)`), e.g. SIGSTOP to stop it
    /// as Ctrl-Z would after a live view gave the terminal back.
    func signalThisProcess(_ number: Int32)
    /// Runs `body` when the process exits through exit(3) (`atexit`).
    func atExit(_ body: @convention(c) () -> Void)
    /// This process's id (`getpid(2)`).
    var processID: Int32 { get }
    /// The running kernel's release (`uname(2)`'s `release`, as `uname -r` prints it).
    var kernelRelease: String? { get }
    /// Waits `duration` (`nanosleep(2)`, again for what is left after a signal).
    func sleep(for duration: Duration)
    /// Flushes every C stdio output stream (`fflush(NULL)`).
    func flushStandardStreams()
    /// Ends the process with `status` (exit(3): atexit handlers run, stdio is flushed).
    func exit(_ status: Int32) -> Never
}

extension SystemCalls {
    /// Writes `bytes` whole to `fd`, writing again after a short write (``write(_:from:)`` itself
    /// retries on EINTR); the error of the first write that fails. The one write-all of beacon:
    /// output files, transports and the CLI's output all call it.
    public func writeAll(_ fd: Int32, from bytes: UnsafeRawBufferPointer) -> Errno? {
        var done = 0
        while done < bytes.count {
            switch write(fd, from: UnsafeRawBufferPointer(rebasing: bytes[done...])) {
            case .failure(let error): return error
            // write(2) taking nothing of a non-empty buffer: treat as an I/O error, never spin.
            case .success(0): return Errno(rawValue: EIO)
            case .success(let n): done += n
            }
        }
        return nil
    }
}

/// A failed system call: which call, and the error number.
public struct SystemCallError: Error, Hashable, Sendable {
    public var call: String
    public var errno: Errno
    public init(call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }
}

/// The live descriptor calls, as defaults (see SystemCalls+Files.swift for the file calls).
extension SystemCalls {
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return .success(n) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        while true {
            let n = Glibc.write(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return .success(n) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func pollReadable(_ fd: Int32, milliseconds: Int32) -> Result<Bool, Errno> {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let r = Glibc.poll(&p, 1, milliseconds)
            if r > 0 { return .success(true) }
            if r == 0 { return .success(false) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func shutdown(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
}

/// The real system calls: every default of ``SystemCalls``.
public struct LiveSystemCalls: SystemCalls {
    public init() {}
}
