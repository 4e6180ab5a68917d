// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 at a free port, for failure-path tests (a peer that never
/// answers, a scripted fake controller): real sockets, no mocks. Connections wait in the
/// kernel's backlog until ``accept()``; the socket closes when the listener goes away.
public final class LoopbackListener: @unchecked Sendable {
    public let fd: Int32
    public let port: UInt16

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            Glibc.close(fd)
            throw POSIXError(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// The next connection's file descriptor (blocks until one comes).
    public func accept() -> Int32 { Glibc.accept(fd, nil, nil) }

    deinit { Glibc.close(fd) }
}
