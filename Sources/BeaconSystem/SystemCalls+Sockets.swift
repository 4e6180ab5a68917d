// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The live socket calls, as defaults: a test double makes `socket` fail with EAFNOSUPPORT (a
/// kernel without Bluetooth) by overriding ``SystemCalls/openSocket(domain:type:protocol:)`` alone.
extension SystemCalls {
    public func openSocket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, Errno> {
        let fd = socket(domain, type, `protocol`)
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    public func bind(_ fd: Int32, to address: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        let done = address.withMemoryRebound(to: sockaddr.self) { Glibc.bind(fd, $0.baseAddress, socklen_t(address.count)) }
        return done == 0 ? .success(()) : .failure(.current)
    }

    public func send(_ fd: Int32, _ datagram: UnsafeRawBufferPointer, to address: UnsafeRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        while true {
            let n = address.withMemoryRebound(to: sockaddr.self) {
                sendto(fd, datagram.baseAddress, datagram.count, flags, $0.baseAddress, socklen_t(address.count))
            }
            if n >= 0 { return .success(n) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, flags)
            if n >= 0 { return .success(n) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    public func connect(_ fd: Int32, to address: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        let done = address.withMemoryRebound(to: sockaddr.self) { Glibc.connect(fd, $0.baseAddress, socklen_t(address.count)) }
        return done == 0 ? .success(()) : .failure(.current)
    }

    public func intOption(_ fd: Int32, level: Int32, name: Int32) -> Result<Int32, Errno> {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, level, name, &value, &length) == 0 ? .success(value) : .failure(.current)
    }

    public func statusFlags(of fd: Int32) -> Result<Int32, Errno> {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 ? .success(flags) : .failure(.current)
    }

    public func setStatusFlags(of fd: Int32, to flags: Int32) -> Result<Void, Errno> {
        fcntl(fd, F_SETFL, flags) == 0 ? .success(()) : .failure(.current)
    }

    public func setOption(_ fd: Int32, level: Int32, name: Int32, value: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        setsockopt(fd, level, name, value.baseAddress, socklen_t(value.count)) == 0 ? .success(()) : .failure(.current)
    }
}

/// Socket types and type flags for ``SystemCalls/openSocket(domain:type:protocol:)``, for callers
/// that would otherwise import the C library for them (on Glibc they are members of an imported
/// enum, which a file that makes no socket call of its own may not find).
public enum SocketType {
    /// `SOCK_STREAM`: a byte stream (TCP).
    public static let stream = Int32(SOCK_STREAM.rawValue)
    /// `SOCK_DGRAM`: datagrams.
    public static let datagram = Int32(SOCK_DGRAM.rawValue)
    /// `SOCK_RAW`: the protocol's own packets (a kernel HCI socket).
    public static let raw = Int32(SOCK_RAW.rawValue)
    /// `SOCK_NONBLOCK`, or'ed into a type: the socket is non-blocking from the start.
    public static let nonBlocking = Int32(SOCK_NONBLOCK.rawValue)
    /// `SOCK_CLOEXEC`, or'ed into a type: programs we start do not inherit the socket.
    public static let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
}
