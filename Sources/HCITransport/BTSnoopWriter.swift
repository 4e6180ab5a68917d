// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes every HCI packet of a session, both directions, to a btsnoop file (see ``BTSnoop`` for
/// the format) with datalink 1002 (HCI UART/H4): each record's data starts with the H4 packet
/// indicator. Wireshark and tshark open it.
///
/// Each record is written with `write(2)` as it comes, so a run that is killed still leaves a
/// usable file. The capture is a side record, never a reason to stop a run: the first write that
/// fails (a full disk, `/dev/full`) is reported once through `onWriteFailure` and the capture
/// stops there, while the session carries on.
public final class BTSnoopWriter: @unchecked Sendable {
    public enum Direction: Sendable { case sent, received }

    /// Why the file could not be opened; nothing was written to it.
    public enum OpenError: Error, Hashable, Sendable, CustomStringConvertible {
        case cannotOpen(path: String, errno: Errno)
        /// A FIFO, socket, directory or block device: writing a FIFO blocks until someone reads
        /// it, so only regular files and character devices (`/dev/null`, a tty) are taken.
        case unsupportedKind(path: String, kind: String)
        /// The path is (a link to, or another name of) one of the command's input files or the
        /// controller's UART, which creating the capture would truncate or write into.
        case isAnInput(path: String, input: String)

        /// Control characters of the paths are escaped: the message stays one line.
        public var description: String {
            switch self {
            case let .cannotOpen(path, errno): "cannot create \(path.escapingControlCharacters): \(errno)"
            case let .unsupportedKind(path, kind):
                "\(path.escapingControlCharacters) is \(kind); --btsnoop writes a regular file (or a character device such as /dev/null)"
            case let .isAnInput(path, input):
                path == input ? "\(path.escapingControlCharacters) is one of the files the command reads (an input, or the controller's device); it would be overwritten"
                    : "\(path.escapingControlCharacters) is the same file as \(input.escapingControlCharacters), which the command reads; it would be overwritten"
            }
        }
    }

    public let path: String
    /// Called once, from the thread that was writing, with a message naming the path and the
    /// error, when the first write fails.
    public let onWriteFailure: @Sendable (String) -> Void
    private struct State {
        var fd: Int32
        var failed = false
    }
    private let state: Mutex<State>

    /// Creates (or truncates) `path` and writes the file header. Refuses, before touching the
    /// file, a path that names one of `inputs` (compared by device and inode, so another
    /// spelling or a link is caught) and anything but a regular file or character device.
    /// Opening never blocks: a FIFO is opened with `O_NONBLOCK` and refused.
    public init(path: String, inputs: [String] = [],
                onWriteFailure: @escaping @Sendable (String) -> Void = { _ in }) throws(OpenError) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let error = Errno.current
            // A FIFO without a reader refuses a non-blocking writer (ENXIO), a directory any
            // writer (EISDIR): say what the path is rather than the bare error.
            var info = stat()
            if stat(path, &info) == 0, let kind = Self.unsupportedKind(info.st_mode) {
                throw .unsupportedKind(path: path, kind: kind)
            }
            throw .cannotOpen(path: path, errno: error)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = Errno.current
            Glibc.close(fd)
            throw .cannotOpen(path: path, errno: error)
        }
        if let kind = Self.unsupportedKind(info.st_mode) {
            Glibc.close(fd)
            throw .unsupportedKind(path: path, kind: kind)
        }
        for input in inputs {
            var other = stat()
            if stat(input, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino {
                Glibc.close(fd)
                throw .isAnInput(path: path, input: input)
            }
        }
        // Only now, with the file known to be ours to overwrite; and writes block as usual (a
        // character device such as a tty would otherwise fail with EAGAIN).
        if info.st_mode & S_IFMT == S_IFREG { _ = ftruncate(fd, 0) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.path = path
        self.onWriteFailure = onWriteFailure
        state = Mutex(State(fd: fd))
        var header = Self.bigEndian(UInt32(truncatingIfNeeded: BTSnoop.identification >> 32))
        header += Self.bigEndian(UInt32(truncatingIfNeeded: BTSnoop.identification))
        header += Self.bigEndian(BTSnoop.version)
        header += Self.bigEndian(BTSnoop.Datalink.h4)
        write(header)
    }

    deinit { _ = state.withLock { Glibc.close($0.fd) } }

    /// Whether a write failed and the capture stopped.
    public var hasFailed: Bool { state.withLock { $0.failed } }

    /// Appends one H4 packet (indicator first). Commands/events get the command flag; ACL/SCO/ISO
    /// data do not.
    public func record(_ packet: [UInt8], direction: Direction, timestamp: UInt64? = nil) {
        guard let indicator = packet.first else { return }
        var flags: UInt32 = direction == .received ? BTSnoop.RecordFlags.received : 0
        if indicator == H4PacketType.command.rawValue || indicator == H4PacketType.event.rawValue { flags |= BTSnoop.RecordFlags.commandOrEvent }
        var ts = timestamp ?? Self.now()
        ts &+= UInt64(BTSnoop.unixEpochOffset)
        var record: [UInt8] = []
        record.reserveCapacity(BTSnoop.recordHeaderSize + packet.count)
        record += Self.bigEndian(UInt32(packet.count))  // original length
        record += Self.bigEndian(UInt32(packet.count))  // included length
        record += Self.bigEndian(flags)
        record += Self.bigEndian(UInt32(0))  // cumulative drops
        record += Self.bigEndian(UInt32(truncatingIfNeeded: ts >> 32))
        record += Self.bigEndian(UInt32(truncatingIfNeeded: ts))
        record += packet
        write(record)
    }

    /// Writes `bytes` whole, or reports the first failure and stops the capture.
    private func write(_ bytes: [UInt8]) {
        let failure: Errno? = state.withLock { state in
            guard !state.failed else { return nil }
            let fd = state.fd
            let error: Errno? = bytes.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                    if n < 0, errno == EINTR { continue }
                    if n < 0 { return .current }
                    // write(2) returning 0 for a non-empty buffer: a device that takes nothing.
                    if n == 0 { return Errno(rawValue: EIO) }
                    done += n
                }
                return nil
            }
            if error != nil { state.failed = true }
            return error
        }
        if let failure {
            onWriteFailure("--btsnoop: writing \(path.escapingControlCharacters) failed: \(failure); the capture stops here, the run goes on without it")
        }
    }

    /// What kind of file `mode` is when it is not one btsnoop writes to; `nil` for regular files
    /// and character devices.
    static func unsupportedKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFCHR: nil
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        case S_IFBLK: "a block device"
        default: "not a regular file"
        }
    }

    /// Microseconds since the Unix epoch.
    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec / 1000)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}
