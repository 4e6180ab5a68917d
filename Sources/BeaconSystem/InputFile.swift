// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A file a front end reads as its input: a path, `-` for standard input, or a pipe the shell
/// made (`<(…)`, which arrives as `/dev/fd/N`) or a FIFO; directories, devices and sockets are
/// refused before a byte is read (a device may never end, /dev/zero, or wait for ever, a
/// terminal). Says precisely why one cannot be read. Every look goes through the system-call seam.
public struct InputFile: Sendable {
    public var system: any SystemCalls

    public init(system: any SystemCalls = LiveSystemCalls()) { self.system = system }

    /// Why `path` cannot be read, in words to follow its name (`no such file`, `cannot read: it is
    /// a directory`), or nil when it can be opened for reading (`-` always can). Nothing is opened.
    public func problem(_ path: String) -> String? {
        if path == "-" { return nil }
        let info: stat
        switch system.status(path, relativeTo: AT_FDCWD, followingLinks: true) {
        case .success(let status): info = status
        case .failure(.noSuchFile) where isDescriptorPath(path):
            return "no such file: a pipe from the shell (<(…)) that this process did not get (sudo and some wrappers close them); pipe into - instead, as in `cat FILE | beacon … -`"
        case .failure(.noSuchFile): return "no such file"
        case .failure(let error): return "cannot read: \(error)"
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "cannot read: it is a directory"
        case S_IFCHR: return "cannot read: it is a character device; give a regular file, a pipe, or - for standard input"
        case S_IFBLK: return "cannot read: it is a block device; give a regular file, a pipe, or - for standard input"
        case S_IFSOCK: return "cannot read: it is a socket; give a regular file, a pipe, or - for standard input"
        default: break
        }
        switch system.checkAccess(path, mode: R_OK) {
        case .success: return nil
        case .failure(.permissionDenied): return "cannot read: permission denied"
        case .failure(let error): return "cannot read: \(error)"
        }
    }

    /// `/dev/fd/N`, `/proc/self/fd/N` (or this process's own number): what bash and zsh pass for `<(…)`.
    public func isDescriptorPath(_ path: String) -> Bool {
        path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/self/fd/") || path.hasPrefix("/proc/\(system.processID)/fd/")
    }

    /// The size of `path` when it is a regular file; nil for anything else (a pipe has none).
    public func regularFileSize(_ path: String) -> Int? {
        guard case .success(let info) = system.status(path, relativeTo: AT_FDCWD, followingLinks: true),
              info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The bytes of `path`, read whole but never more than `limit + 1` of them (a result longer
    /// than `limit` says the file is larger than the caller takes): a regular file up to the size
    /// it has when opened (one that keeps growing, a scan still writing to it, would otherwise be
    /// read for ever), a pipe to its end.
    public func contents(_ path: String, limit: Int) -> Result<[UInt8], Errno> {
        let fd: Int32
        switch system.open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(error)
        }
        defer { system.close(fd) }
        // At most one byte past the limit, and of a regular file what it has now.
        var cap = limit + 1
        if case .success(let info) = system.status(of: fd), info.st_mode & S_IFMT == S_IFREG { cap = min(cap, Int(info.st_size)) }
        return system.readAll(fd, limit: cap).map { Array($0.prefix(cap)) }
    }
}
