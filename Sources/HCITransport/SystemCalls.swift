// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The thin layer over the system calls the transports make, so tests can replace it (for example
/// to make `socket` fail with EAFNOSUPPORT, as on a kernel without Bluetooth). Like swift-system,
/// every call returns a typed `Errno` instead of reading the global.
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
    /// A kernel raw HCI socket bound to `device` on `channel` (0 raw, 1 user).
    func openHCISocket(device: UInt16, channel: UInt16, filterEvents: Bool) -> Result<Int32, SystemCallError>

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

/// The real system calls.
public struct LiveSystemCalls: SystemCalls {
    public init() {}

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
            let r = poll(&p, 1, milliseconds)
            if r > 0 { return .success(true) }
            if r == 0 { return .success(false) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func shutdown(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    public func openHCISocket(device: UInt16, channel: UInt16, filterEvents: Bool) -> Result<Int32, SystemCallError> {
        BlueZ.openSocket(device: device, channel: channel, filterEvents: filterEvents)
    }
}
