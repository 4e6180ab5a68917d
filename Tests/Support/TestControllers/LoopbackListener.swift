// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import HCITransport
#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 with a free port, for peers the tests play themselves.
public final class LoopbackListener: @unchecked Sendable {
    public let fd: Int32
    public let port: UInt16

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw Errno(rawValue: errno) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: addr.sin_port)
    }

    public func accept() -> Int32 { Glibc.accept(fd, nil, nil) }
    deinit { Glibc.close(fd) }
}
