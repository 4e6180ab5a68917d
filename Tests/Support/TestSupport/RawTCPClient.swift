// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to 127.0.0.1, for sending what no well-behaved client sends (an
/// endless line, a frame that lies about its length) and reading what the server answers. Every
/// read waits at most `timeout` (a hang bound, not a verdict); writes never raise SIGPIPE.
public final class RawTCPClient: @unchecked Sendable {
    public let fd: Int32

    public init(port: UInt16, timeout: Duration = .seconds(30)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            Glibc.close(fd)
            throw POSIXError(code)
        }
    }

    /// Sends all of `bytes`; false when the peer closed or reset before it was all sent.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Bytes until the peer closes (or resets, or the hang bound passes), at most `limit`.
    public func readToEnd(limit: Int = 1 << 20) -> [UInt8] {
        var all: [UInt8] = []
        while all.count < limit, let chunk = read(), !chunk.isEmpty { all += chunk }
        return all
    }

    /// Reads until `until` holds for what was read, the peer closes or the hang bound passes.
    public func read(until: ([UInt8]) -> Bool) -> [UInt8] {
        var all: [UInt8] = []
        while !until(all), let chunk = read(), !chunk.isEmpty { all += chunk }
        return all
    }

    /// One read: nil on an error (a reset, the hang bound), empty at the end.
    public func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            return n < 0 ? nil : Array(buffer.prefix(n))
        }
    }

    /// Reads and drops what comes until the peer closes or resets (true: a peer that closes
    /// with bytes of ours unread resets) or the hang bound passes (false).
    public func waitForClose() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n > 0 { continue }
            switch errno {
            case EINTR: continue
            case ECONNRESET, EPIPE: return true
            default: return false
            }
        }
    }

    /// Whether the peer has closed: a read returns the end at once (false while it is open
    /// and quiet, or sends something).
    public var peerHasClosed: Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return n == 0
    }

    deinit { Glibc.close(fd) }
}
