// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The live file calls, as defaults: a test double overrides only the calls it makes fail
/// (a `write` that returns ENOSPC, a `rename` that returns EIO) and gets the real ones otherwise.
extension SystemCalls {
    public func open(_ path: String, flags: Int32, mode: mode_t, relativeTo directory: Int32) -> Result<Int32, Errno> {
        while true {
            let fd = openat(directory, path, flags, mode)
            if fd >= 0 { return .success(fd) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func status(_ path: String, relativeTo directory: Int32 = AT_FDCWD, followingLinks: Bool) -> Result<stat, Errno> {
        var info = stat()
        guard fstatat(directory, path, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 else { return .failure(.current) }
        return .success(info)
    }

    public func status(of fd: Int32) -> Result<stat, Errno> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.current) }
        return .success(info)
    }

    public func makeDirectory(_ path: String, mode: mode_t) -> Result<Void, Errno> {
        mkdir(path, mode) == 0 ? .success(()) : .failure(.current)
    }

    public func synchronize(_ fd: Int32) -> Result<Void, Errno> {
        while true {
            if fsync(fd) == 0 { return .success(()) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func truncate(_ fd: Int32, to length: Int) -> Result<Void, Errno> {
        ftruncate(fd, off_t(length)) == 0 ? .success(()) : .failure(.current)
    }

    public func changeMode(_ fd: Int32, to mode: mode_t) -> Result<Void, Errno> {
        fchmod(fd, mode) == 0 ? .success(()) : .failure(.current)
    }

    public func changeOwner(_ fd: Int32, user: uid_t, group: gid_t) -> Result<Void, Errno> {
        fchown(fd, user, group) == 0 ? .success(()) : .failure(.current)
    }

    public func rename(_ from: String, to: String, relativeTo directory: Int32) -> Result<Void, Errno> {
        renameat(directory, from, directory, to) == 0 ? .success(()) : .failure(.current)
    }

    public func unlink(_ name: String, relativeTo directory: Int32) -> Result<Void, Errno> {
        unlinkat(directory, name, 0) == 0 ? .success(()) : .failure(.current)
    }

    public func directoryEntries(_ fd: Int32) -> Result<[String], Errno> {
        // fdopendir takes the descriptor over (closedir closes it): list a duplicate.
        let copy = dup(fd)
        guard copy >= 0 else { return .failure(.current) }
        guard let listing = fdopendir(copy) else {
            let error = Errno.current
            Glibc.close(copy)
            return .failure(error)
        }
        defer { closedir(listing) }
        rewinddir(listing)
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return .success(names)
    }

    public func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var effectiveUserID: uid_t { geteuid() }

    public func checkAccess(_ path: String, mode: Int32) -> Result<Void, Errno> {
        access(path, mode) == 0 ? .success(()) : .failure(.current)
    }

    /// The bytes of a small file (a /proc or /sys entry), at most `limit` of them, read through
    /// ``open(_:flags:mode:relativeTo:)`` and ``readAll(_:limit:)``.
    public func readSmallFile(_ path: String, limit: Int) -> Result<[UInt8], Errno> {
        let fd: Int32
        switch open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(error)
        }
        defer { close(fd) }
        return readAll(fd, limit: limit).map { Array($0.prefix(limit)) }
    }
}
