// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
#if canImport(Glibc)
import Glibc  // constants, and getaddrinfo (the resolver: a library function, not a system call)
#endif

/// H4 over TCP: Bumble's `tcp-server:`, Android's Root-Canal and netsim, Zephyr native builds.
public enum TCPTransport {
    /// Connects to `host:port` within `timeout`.
    public static func connect(host: String, port: UInt16, timeout: Duration = .seconds(2), system: any SystemCalls = LiveSystemCalls()) throws(TransportError) -> FileDescriptorTransport {
        let name = "tcp:\(host):\(port)"
        var hints = addrinfo()
        hints.ai_socktype = SocketType.stream
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
            // Close-on-exec: not inherited by programs we start.
            let type = a.pointee.ai_socktype | SocketType.closeOnExec
            let fd: Int32
            switch system.openSocket(domain: a.pointee.ai_family, type: type, protocol: a.pointee.ai_protocol) {
            case .success(let opened): fd = opened
            case .failure(let error):
                lastError = .system(SystemCallError(call: "socket", errno: error), adapter: name)
                continue
            }
            do throws(TransportError) {
                let address = UnsafeRawBufferPointer(start: a.pointee.ai_addr, count: Int(a.pointee.ai_addrlen))
                try connect(fd: fd, address: address, timeout: timeout, name: name, system: system)
                _ = withUnsafeBytes(of: Int32(1)) { system.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: $0) }
                return FileDescriptorTransport(fd: fd, adapterName: name, system: system)
            } catch {
                system.close(fd)
                lastError = error
            }
        }
        throw lastError
    }

    /// A non-blocking connect bounded by `timeout`, then back to blocking mode.
    static func connect(fd: Int32, address: UnsafeRawBufferPointer, timeout: Duration, name: String, system: any SystemCalls) throws(TransportError) {
        let flags = (try? system.statusFlags(of: fd).get()) ?? 0
        _ = system.setStatusFlags(of: fd, to: flags | O_NONBLOCK)
        if case .failure(let error) = system.connect(fd, to: address) {
            guard error == .inProgress else {
                throw .system(SystemCallError(call: "connect", errno: error), adapter: name)
            }
            let ready: Result<Int16, Errno> = system.poll(fd, for: Int16(POLLOUT), milliseconds: timeout.pollMilliseconds)
            if case .success(0) = ready {
                let (s, atto) = timeout.components
                throw .connectTimeout(adapter: name, seconds: Double(s) + Double(atto) / 1e18)
            }
            let soError = (try? system.intOption(fd, level: SOL_SOCKET, name: SO_ERROR).get()) ?? 0
            if case .failure(let error) = ready {
                throw .system(SystemCallError(call: "connect", errno: error), adapter: name)
            }
            if soError != 0 {
                throw .system(SystemCallError(call: "connect", errno: Errno(rawValue: soError)), adapter: name)
            }
        }
        _ = system.setStatusFlags(of: fd, to: flags)
    }
}
