// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// Where an output file goes, checked before anything is written: its folder opened (the file is
/// then reached relative to that descriptor, so the folder cannot be swapped underneath), and
/// what is at the path now, seen with `lstat` — nothing, or a regular file. A symbolic link, a
/// FIFO, a device, a socket or a directory there is refused.
final class OutputTarget {
    let path: String
    /// The folder, open (`O_DIRECTORY`); closed with the target.
    let folder: Int32
    /// The last component of the path.
    let name: String
    /// The regular file at the path now (nil: none).
    let existing: stat?
    let system: any SystemCalls

    init(_ path: String, system: any SystemCalls) throws(OutputFileError) {
        let slash = path.lastIndex(of: "/")
        let folderPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else { throw .notARegularFile(path: path, kind: "a directory") }
        let folder: Int32
        switch system.open(folderPath, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) {
        case .success(let fd): folder = fd
        case .failure(let error) where error.rawValue == ENOENT: throw .missingFolder(path: path, folder: folderPath)
        case .failure(let error) where error.rawValue == ENOTDIR: throw .notAFolder(path: path, folder: folderPath)
        case .failure(let error): throw .cannotOpen(path: path, errno: error)
        }
        self.path = path
        self.folder = folder
        self.name = name
        self.system = system
        switch Self.kind(name, in: folder, path: path, system: system) {
        case .success(let info): existing = info
        case .failure(let error):
            system.close(folder)
            throw error
        }
    }

    deinit { system.close(folder) }

    /// The regular file named `name` in `folder` (nil: nothing there), or why it is not one.
    static func kind(_ name: String, in folder: Int32, path: String, system: any SystemCalls) -> Result<stat?, OutputFileError> {
        switch system.status(name, relativeTo: folder, followingLinks: false) {
        case .failure(let error) where error.rawValue == ENOENT: return .success(nil)
        case .failure(let error): return .failure(.cannotOpen(path: path, errno: error))
        case .success(let info):
            if info.st_mode & S_IFMT == S_IFLNK { return .failure(.symbolicLink(path: path, target: system.linkTarget(path))) }
            if let kind = unsupportedKind(info.st_mode) { return .failure(.notARegularFile(path: path, kind: kind)) }
            return .success(info)
        }
    }

    /// What kind of file `mode` is when it is not a regular file.
    static func unsupportedKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// Refuses an open output that is one of `inputs` (same device and inode, so any spelling or
    /// link to it is caught).
    static func checkNotAnInput(_ info: stat, path: String, inputs: [String], system: any SystemCalls) throws(OutputFileError) {
        for input in inputs {
            if case .success(let other) = system.status(input, relativeTo: AT_FDCWD, followingLinks: true),
               other.st_dev == info.st_dev, other.st_ino == info.st_ino {
                throw .isAnInput(path: path, input: input)
            }
        }
    }
}
