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

    public func setOption(_ fd: Int32, level: Int32, name: Int32, value: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        setsockopt(fd, level, name, value.baseAddress, socklen_t(value.count)) == 0 ? .success(()) : .failure(.current)
    }
}
