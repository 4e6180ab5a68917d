// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
#if canImport(Glibc)
import Glibc
#endif

/// H4 over TCP: Bumble's `tcp-server:`, Android's Root-Canal and netsim, Zephyr native builds.
public enum TCPTransport {
    /// Connects to `host:port` within `timeout`.
    public static func connect(host: String, port: UInt16, timeout: Duration = .seconds(2), system: any SystemCalls = LiveSystemCalls()) throws(TransportError) -> FileDescriptorTransport {
        let name = "tcp:\(host):\(port)"
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            let reason = rc == 0 ? "no address" : String(cString: gai_strerror(rc))
            throw .invalidAdapter(name, reason: "cannot resolve \(host): \(reason)")
        }
        defer { freeaddrinfo(list) }
        var lastError = TransportError.closed(adapter: name)
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let a = node {
            node = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = .system(SystemCallError(call: "socket", errno: .current), adapter: name)
                continue
            }
            // Not inherited by programs we start (SOCK_CLOEXEC is not visible to Swift in every build mode).
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            do throws(TransportError) {
                try connect(fd: fd, address: a.pointee.ai_addr, length: a.pointee.ai_addrlen, timeout: timeout, name: name)
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return FileDescriptorTransport(fd: fd, adapterName: name, system: system)
            } catch {
                system.close(fd)
                lastError = error
            }
        }
        throw lastError
    }

    /// A non-blocking connect bounded by `timeout`, then back to blocking mode.
    static func connect(fd: Int32, address: UnsafePointer<sockaddr>, length: socklen_t, timeout: Duration, name: String) throws(TransportError) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(fd, address, length) != 0 {
            guard errno == EINPROGRESS else {
                throw .system(SystemCallError(call: "connect", errno: .current), adapter: name)
            }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let r = poll(&p, 1, timeout.pollMilliseconds)
            if r == 0 {
                let (s, atto) = timeout.components
                throw .connectTimeout(adapter: name, seconds: Double(s) + Double(atto) / 1e18)
            }
            var soError: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
            if r < 0 || soError != 0 {
                throw .system(SystemCallError(call: "connect", errno: r < 0 ? .current : Errno(rawValue: soError)), adapter: name)
            }
        }
        _ = fcntl(fd, F_SETFL, flags)
    }
}
