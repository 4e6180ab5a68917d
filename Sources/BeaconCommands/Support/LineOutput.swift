// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import HCITransport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The CLI's one output layer: data on standard output, diagnostics on standard error, nothing
/// written any other way (no bare `print`). Lines may come from several tasks at once (the run,
/// the air log follower, the live table): each is written whole, never interleaved, and
/// unbuffered so that a pipe or a log file sees it as it happens rather than when the process
/// exits.
///
/// Writes go straight to write(2), with SIGPIPE ignored (see ``ignoreBrokenPipes()``): a reader
/// that goes away (`beacon advertise … | head -1`) is then an EPIPE here, which calls the handler
/// set with ``onClosedOutput(_:)`` once (a run stops cleanly) instead of killing the process with
/// beacons left on air.
enum LineOutput {
    private struct State {
        var closed = false
        var onClosed: (@Sendable () -> Void)?
    }

    private static let state = Mutex(State())

    /// A line of data on standard output.
    static func out(_ line: String) { write(line + "\n", to: STDOUT_FILENO) }

    /// A diagnostic line on standard error.
    static func err(_ line: String) { write(line + "\n", to: STDERR_FILENO) }

    /// Text as is (the live table writes its own cursor movements).
    static func rawOut(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Text as is on standard error (a progress line rewritten in place).
    static func rawErr(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Makes a closed pipe an error of write(2) rather than a fatal signal; once per process.
    static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Called once when standard output turns out to be closed (EPIPE on a write, or the pipe's
    /// reader gone while we had nothing to write); at once if it already was.
    static func onClosedOutput(_ handler: @escaping @Sendable () -> Void) {
        let closed = state.withLock { s in
            s.onClosed = handler
            return s.closed
        }
        if closed { handler() } else { watchForVanishingReader() }
    }

    /// A run that has nothing more to print (beacons that do not rotate) would not notice that
    /// the reader of its pipe went away (`| head -1`) until its next line. poll(2) on the write
    /// end of a pipe or socket reports POLLERR/POLLHUP as soon as no reader is left, whatever
    /// events are asked for; a thread waits for that. Files and terminals are not watched.
    private static func watchForVanishingReader() {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFSOCK else { return }
        let thread = Thread {
            var watch = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while true {
                let n = poll(&watch, 1, -1)
                if n < 0 && errno == EINTR { continue }
                if n > 0, watch.revents & Int16(POLLERR | POLLHUP) != 0 { break }
                if n < 0 { return }
            }
            outputClosed(reason: String(cString: strerror(EPIPE)))
        }
        thread.name = "beacon stdout watcher"
        thread.start()
    }

    /// One lock per stream: a line stuck on standard output (a pipe nobody reads) never holds
    /// up a diagnostic on standard error ("SIGINT: stopping").
    private static let standardOutputLock = Mutex(())
    private static let standardErrorLock = Mutex(())
    /// Set once a stop was asked for (see ``stopRequested()``).
    private static let stopping = Atomic<Bool>(false)
    /// How long, once stopping, a write may wait for a reader that does not read.
    static let stuckAfterStop = Duration.milliseconds(250)

    /// A stop signal arrived: from now on a stream nobody reads (a full pipe, a terminal held
    /// with Ctrl-S) is given up after ``stuckAfterStop`` instead of holding the stop up, so the
    /// run ends within a second whatever its output waits on.
    static func stopRequested() { stopping.store(true, ordering: .releasing) }

    private static func write(_ text: String, to fd: Int32) {
        let failure = fd == STDOUT_FILENO
            ? standardOutputLock.withLock { _ in
                // Standard output gone: drop what would go there; errors still go to standard error.
                state.withLock { $0.closed } ? nil : writeAll(text, to: fd)
            }
            : standardErrorLock.withLock { _ in writeAll(text, to: fd) }
        guard fd == STDOUT_FILENO, let failure else { return }
        // EPIPE, a reader that stopped reading, or any other error: nobody will see our output any more.
        outputClosed(reason: failure)
    }

    /// Writes `text` whole; why not, if it could not be.
    private static func writeAll(_ text: String, to fd: Int32) -> String? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            guard waitUntilWritable(fd) else { return "nobody reads it" }
            // At most a pipe's atomic size: after POLLOUT, a write that fits never blocks. Through
            // the seam, which retries EINTR; a write that takes part of it goes round again.
            switch bytes.prefix(Int(PIPE_BUF)).withUnsafeBytes({ LiveSystemCalls().write(fd, from: $0) }) {
            case .success(let n): bytes = bytes.dropFirst(n)
            case .failure(let error) where error.rawValue == EAGAIN: continue
            case .failure(let error): return String(cString: strerror(error.rawValue))
            }
        }
        return nil
    }

    /// Waits until `fd` takes data: as long as it takes while the run goes on (output is never
    /// dropped then), at most ``stuckAfterStop`` once stopping. `false`: given up.
    private static func waitUntilWritable(_ fd: Int32) -> Bool {
        var waitedWhileStopping = Duration.zero
        let slice = Duration.milliseconds(50)
        while true {
            var watch = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let n = poll(&watch, 1, 50)
            // Ready, or an error the write itself will report (EPIPE, EBADF).
            if n > 0 { return true }
            if n < 0, errno != EINTR { return true }
            if stopping.load(ordering: .acquiring) {
                waitedWhileStopping += slice
                if waitedWhileStopping >= stuckAfterStop { return false }
            }
        }
    }

    private static func outputClosed(reason: String) {
        let handler: (@Sendable () -> Void)? = state.withLock { s in
            guard !s.closed else { return nil }
            s.closed = true
            return s.onClosed
        }
        if let handler {
            err("standard output was closed (\(reason)): stopping")
            handler()
        }
    }

    /// Calls `body` with each line of standard input as soon as it arrives, until end of file:
    /// a producer that writes a line now and then gets each answer at once, and input of any
    /// length takes constant memory: a line longer than ``maximumInputLineLength`` bytes (no
    /// payload or trace line comes near it; /dev/zero or a binary file piped in would grow one
    /// without end) ends the reading with ``OverlongLine``.
    static func forEachStandardInputLine(_ body: (String) throws -> Void) throws {
        var line: [UInt8] = []
        var number = 0
        while true {
            let byte = getchar()  // buffered by stdio, as readLine was
            if byte == EOF && line.isEmpty { return }
            if byte == EOF || byte == 0x0A {
                number += 1
                if line.last == 0x0D { line.removeLast() }
                try body(String(decoding: line, as: UTF8.self))
                if byte == EOF { return }
                line.removeAll(keepingCapacity: true)
                continue
            }
            guard line.count < maximumInputLineLength else { throw OverlongLine(number: number + 1) }
            line.append(UInt8(byte))
        }
    }

    /// The longest line ``forEachStandardInputLine(_:)`` takes, in bytes (1 MiB).
    static let maximumInputLineLength = 1 << 20

    /// A line of standard input past ``maximumInputLineLength``.
    struct OverlongLine: Error, CustomStringConvertible {
        var number: Int
        var description: String {
            "- (standard input):\(number): longer than \(maximumInputLineLength) bytes without a line end: not a line of text (a payload or a trace line is far shorter)"
        }
    }

    /// Whether standard output is a terminal (the live table), not a pipe or a file (log lines).
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
