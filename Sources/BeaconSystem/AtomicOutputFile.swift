// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A whole-file output (`scan --save`), written so that the path holds either what was there
/// before or the complete new file, never a part: a temporary file in the same folder is
/// written, synced and renamed over the path.
///
/// - Only a new file or an existing regular file is replaced; a symbolic link (never followed:
///   the link itself would be replaced), FIFO, device, socket or directory is refused.
/// - A replaced file keeps its mode and owner; a new one gets mode 0666 less the umask (as a
///   shell's `>` would create it).
/// - A missing folder is named in the error; a failed write, sync or rename leaves the old file
///   as it was and removes the temporary one.
public enum AtomicOutputFile {
    /// Checks, without writing anything, that `path` is a place ``write(_:to:system:)`` would
    /// write: its folder exists and holds nothing there or a regular file. For a command that
    /// writes at its end, so a wrong path is refused before the work rather than after it.
    public static func check(_ path: String, system: any SystemCalls = LiveSystemCalls()) throws(OutputFileError) {
        _ = try OutputTarget(path, system: system)
    }

    /// Writes `bytes` as the whole new content of `path` (see above).
    public static func write(_ bytes: [UInt8], to path: String, system: any SystemCalls = LiveSystemCalls()) throws(OutputFileError) {
        let target = try OutputTarget(path, system: system)
        let (temporary, fd) = try createTemporary(next: target, creatingWithMode: target.existing == nil ? 0o666 : 0o600)
        do throws(OutputFileError) {
            defer { system.close(fd) }
            if let existing = target.existing { try keepOwnerAndMode(of: existing, on: fd, path: path, system: system) }
            if let error = bytes.withUnsafeBytes({ system.writeAll(fd, from: $0) }) { throw .writeFailed(path: path, errno: error) }
            if case .failure(let error) = system.synchronize(fd) { throw .writeFailed(path: path, errno: error) }
            // Checked again just before the rename, which would replace whatever is there now.
            if case .failure(let why) = OutputTarget.kind(target.name, in: target.folder, path: path, system: system) { throw why }
            if case .failure(let error) = system.rename(temporary, to: target.name, relativeTo: target.folder) {
                throw .writeFailed(path: path, errno: error)
            }
        } catch {
            _ = system.unlink(temporary, relativeTo: target.folder)
            throw error
        }
        // The rename itself is on disk once the folder is synced.
        _ = system.synchronize(target.folder)
    }

    /// A new file next to the target, `.<name>.<random>.tmp`, created exclusively (never an
    /// existing file or a link).
    static func createTemporary(next target: OutputTarget, creatingWithMode mode: mode_t) throws(OutputFileError) -> (String, Int32) {
        var lastError = Errno(rawValue: EEXIST)
        for _ in 0..<16 {
            let name = ".\(target.name.prefix(200)).\(String(UInt32.random(in: 0...UInt32.max), radix: 36)).tmp"
            switch target.system.open(name, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: mode, relativeTo: target.folder) {
            case .success(let fd): return (name, fd)
            case .failure(let error) where error.rawValue == EEXIST: lastError = error
            case .failure(let error): throw .cannotOpen(path: target.path, errno: error)
            }
        }
        throw .cannotOpen(path: target.path, errno: lastError)
    }

    /// Gives the temporary file the owner, group and mode of the file it replaces (owner first:
    /// changing it clears set-user-ID bits). A change the user may not make (another user's
    /// file) fails the whole write: the file is left as it was.
    static func keepOwnerAndMode(of existing: stat, on fd: Int32, path: String, system: any SystemCalls) throws(OutputFileError) {
        let created: stat
        switch system.status(of: fd) {
        case .success(let info): created = info
        case .failure(let error): throw .cannotKeepOwner(path: path, errno: error)
        }
        if created.st_uid != existing.st_uid || created.st_gid != existing.st_gid,
           case .failure(let error) = system.changeOwner(fd, user: existing.st_uid, group: existing.st_gid) {
            throw .cannotKeepOwner(path: path, errno: error)
        }
        if case .failure(let error) = system.changeMode(fd, to: existing.st_mode & 0o7777) { throw .cannotKeepOwner(path: path, errno: error) }
    }
}
