// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A front end's one output layer (the command line's): data on standard output, diagnostics on
/// standard error, nothing written any other way (no bare `print`). Lines may come from several tasks at once (the run,
/// the air log follower, the live table): each is written whole, never interleaved, and
/// unbuffered so that a pipe or a log file sees it as it happens rather than when the process
/// exits.
///
/// Writes go straight to write(2), with SIGPIPE ignored (see ``ignoreBrokenPipes()``): a reader
/// that goes away (`beacon advertise … | head -1`) is then an EPIPE here, which calls the handler
/// set with ``onClosedOutput(_:)`` once (a run stops cleanly) instead of killing the process with
/// beacons left on air.
public enum LineOutput {
    private struct State {
        var closed = false
        var onClosed: (@Sendable () -> Void)?
    }

    private static let state = Mutex(State())
    /// Every write, poll and read goes through the seam.
    private static let system = LiveSystemCalls()

    /// A line of data on standard output.
    public static func out(_ line: String) { write(line + "\n", to: STDOUT_FILENO) }

    /// A diagnostic line on standard error.
    public static func err(_ line: String) { write(line + "\n", to: STDERR_FILENO) }

    /// Text as is (the live table writes its own cursor movements).
    public static func rawOut(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Text as is on standard error (a progress line rewritten in place).
    public static func rawErr(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Makes a closed pipe an error of write(2) rather than a fatal signal; once per process.
    public static func ignoreBrokenPipes() { system.ignoreSignal(SignalNumber.brokenPipe) }

    /// Called once when standard output turns out to be closed (EPIPE on a write, or the pipe's
    /// reader gone while we had nothing to write); at once if it already was.
    public static func onClosedOutput(_ handler: @escaping @Sendable () -> Void) {
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
        guard case .success(let info) = system.status(of: STDOUT_FILENO) else { return }
        let type = info.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFSOCK else { return }
        // A queue of its own: the wait blocks a thread for as long as the run lasts, which must
        // never be one of Swift concurrency's few cooperative threads.
        DispatchQueue(label: "beacon stdout watcher").async {
            while true {
                switch system.poll(STDOUT_FILENO, for: 0, milliseconds: -1) {
                case .success(let events) where events & Int16(POLLERR | POLLHUP) != 0:
                    outputClosed(reason: Errno.brokenPipe.description)
                    return
                case .success: continue
                case .failure: return
                }
            }
        }
    }

    /// One lock per stream: a line stuck on standard output (a pipe nobody reads) never holds
    /// up a diagnostic on standard error ("SIGINT: stopping").
    private static let standardOutputLock = Mutex(())
    private static let standardErrorLock = Mutex(())
    /// Set once a stop was asked for (see ``stopRequested()``).
    private static let stopping = Atomic<Bool>(false)
    /// How long, once stopping, a write may wait for a reader that does not read.
    public static let stuckAfterStop = Duration.milliseconds(250)

    /// A stop signal arrived: from now on a stream nobody reads (a full pipe, a terminal held
    /// with Ctrl-S) is given up after ``stuckAfterStop`` instead of holding the stop up, so the
    /// run ends within a second whatever its output waits on.
    public static func stopRequested() { stopping.store(true, ordering: .releasing) }

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
            switch bytes.prefix(Int(PIPE_BUF)).withUnsafeBytes({ system.write(fd, from: $0) }) {
            case .success(let n): bytes = bytes.dropFirst(n)
            case .failure(.wouldBlock): continue
            case .failure(let error): return error.description
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
            // Ready, or an error the write itself will report (EPIPE, EBADF); the seam retries EINTR.
            switch system.poll(fd, for: Int16(POLLOUT), milliseconds: 50) {
            case .success(0): break
            case .success, .failure: return true
            }
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
    public static func forEachStandardInputLine(_ body: (String) throws -> Void) throws {
        var line: [UInt8] = []
        var number = 0
        var input = StandardInputBytes()
        while true {
            let byte = input.next()
            if byte == nil && line.isEmpty { return }
            if byte == nil || byte == 0x0A {
                number += 1
                if line.last == 0x0D { line.removeLast() }
                try body(String(decoding: line, as: UTF8.self))
                if byte == nil { return }
                line.removeAll(keepingCapacity: true)
                continue
            }
            guard line.count < maximumInputLineLength else { throw OverlongLine(number: number + 1) }
            line.append(byte!)
        }
    }

    /// Standard input byte by byte, read in blocks through the seam (which retries EINTR): a read
    /// returns what a pipe holds, so a line is seen as soon as it arrives. Its end, or an error
    /// reading it, is nil.
    private struct StandardInputBytes {
        private var block = [UInt8](repeating: 0, count: 65536)
        private var start = 0
        private var end = 0

        mutating func next() -> UInt8? {
            if start == end {
                let read = block.withUnsafeMutableBytes { LineOutput.system.read(STDIN_FILENO, into: $0) }
                switch read {
                case .success(let n) where n > 0: (start, end) = (0, n)
                case .failure(.wouldBlock):
                    // Standard input someone made non-blocking: wait for input instead of ending.
                    guard case .success = LineOutput.system.pollReadable(STDIN_FILENO, milliseconds: -1) else { return nil }
                    return next()
                default: return nil
                }
            }
            defer { start += 1 }
            return block[start]
        }
    }

    /// The longest line ``forEachStandardInputLine(_:)`` takes, in bytes (1 MiB).
    public static let maximumInputLineLength = 1 << 20

    /// A line of standard input past ``maximumInputLineLength``.
    public struct OverlongLine: Error, CustomStringConvertible {
        public var number: Int
        public var description: String {
            "- (standard input):\(number): longer than \(maximumInputLineLength) bytes without a line end: not a line of text (a payload or a trace line is far shorter)"
        }
    }

    /// Whether standard output is a terminal (the live table), not a pipe or a file (log lines).
    public static var standardOutputIsTerminal: Bool { system.isTerminal(STDOUT_FILENO) }

    /// Whether standard error is a terminal (a progress line; messages held while a live view has it).
    public static var standardErrorIsTerminal: Bool { system.isTerminal(STDERR_FILENO) }
}
