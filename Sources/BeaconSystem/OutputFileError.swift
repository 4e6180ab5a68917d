// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Why an output file (`--save`, `--air-log`, `--btsnoop`) was not written. Every message is one
/// line that names the path (control characters escaped) and, for a failed call, the error in
/// words; the caller puts the option in front (`--save: …`).
public enum OutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A FIFO, device, socket or directory: only regular files are written (a FIFO blocks until
    /// someone reads it; a device is not a file to replace).
    case notARegularFile(path: String, kind: String)
    /// The last component of the path is a symbolic link; outputs are never written through one.
    case symbolicLink(path: String, target: String?)
    /// The folder the file would go in does not exist.
    case missingFolder(path: String, folder: String)
    /// Something on the way to the file is not a folder.
    case notAFolder(path: String, folder: String)
    /// The path is (a link to, or another name of) one of the command's input files or the
    /// controller's UART, which writing would truncate.
    case isAnInput(path: String, input: String)
    /// The file could not be created or opened (permissions, a read-only file system…).
    case cannotOpen(path: String, errno: Errno)
    /// An existing file's owner could not be given to its replacement; the file is left as it was.
    case cannotKeepOwner(path: String, errno: Errno)
    /// Writing, syncing or renaming into place failed (a full disk, an I/O error).
    case writeFailed(path: String, errno: Errno)

    public var description: String {
        switch self {
        case let .notARegularFile(path, kind):
            "\(path.escapingControlCharacters) is \(kind); only regular files are written (a new file, or one to replace)"
        case let .symbolicLink(path, target):
            "\(path.escapingControlCharacters) is a symbolic link\(target.map { " (to \($0.escapingControlCharacters))" } ?? ""); outputs are never written through a link (O_NOFOLLOW): name the file itself"
        case let .missingFolder(path, folder):
            "cannot write \(path.escapingControlCharacters): the folder \(folder.escapingControlCharacters) does not exist"
        case let .notAFolder(path, folder):
            "cannot write \(path.escapingControlCharacters): \(folder.escapingControlCharacters) is not a folder"
        case let .isAnInput(path, input):
            path == input ? "\(path.escapingControlCharacters) is one of the files the command reads (an input, or the controller's device); it would be overwritten"
                : "\(path.escapingControlCharacters) is the same file as \(input.escapingControlCharacters), which the command reads; it would be overwritten"
        case let .cannotOpen(path, errno): "cannot create \(path.escapingControlCharacters): \(errno)"
        case let .cannotKeepOwner(path, errno):
            "cannot replace \(path.escapingControlCharacters) keeping its owner (\(errno)); it is left as it was"
        case let .writeFailed(path, errno): "writing \(path.escapingControlCharacters) failed: \(errno)"
        }
    }
}
