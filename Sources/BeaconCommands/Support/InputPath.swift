// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Foundation

/// A file a command reads: a path, `-` for standard input, or a pipe the shell made
/// (`<(…)`, which arrives as `/dev/fd/N`) or a FIFO; devices and sockets are refused. Saying
/// precisely why one cannot be read.
enum InputPath {
    /// How messages name it: `-` is standard input.
    static func label(_ path: String) -> String {
        path == "-" ? "- (standard input)" : path.escapingControlCharacters
    }

    /// Why `path` cannot be read, or nil when it can be opened for reading (`-` always can).
    static func problem(_ path: String) -> String? {
        if path == "-" { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT, isDescriptorPath(path) {
                return "no such file: a pipe from the shell (<(…)) that this process did not get (sudo and some wrappers close them); pipe into - instead, as in `cat FILE | beacon … -`"
            }
            return code == ENOENT ? "no such file" : "cannot read: \(String(cString: strerror(code)))"
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "cannot read: it is a directory"
        // Not read at all: a device may never end (/dev/zero) or wait for ever (a terminal).
        case S_IFCHR: return "cannot read: it is a character device; give a regular file, a pipe, or - for standard input"
        case S_IFBLK: return "cannot read: it is a block device; give a regular file, a pipe, or - for standard input"
        case S_IFSOCK: return "cannot read: it is a socket; give a regular file, a pipe, or - for standard input"
        default: break
        }
        guard access(path, R_OK) == 0 else {
            return errno == EACCES ? "cannot read: permission denied" : "cannot read: \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// `/dev/fd/N`, `/proc/self/fd/N`: what bash and zsh pass for `<(…)`.
    static func isDescriptorPath(_ path: String) -> Bool {
        path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/self/fd/") || path.hasPrefix("/proc/\(getpid())/fd/")
    }
}
