// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// What a process that ended leaves of its UNIX socket: the file, with nobody listening.
public enum StaleSocket {
    /// Binds a datagram socket at `path` and closes it; whether the socket file was made.
    public static func create(at path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw in
            guard path.utf8.count < raw.count else { return false }
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
            return true
        }
        guard fits else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }
}
