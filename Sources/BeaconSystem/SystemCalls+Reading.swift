// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The live descriptor calls beyond read and write, as defaults, and the one read-all.
extension SystemCalls {
    public func duplicate(_ fd: Int32) -> Result<Int32, Errno> {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        return copy >= 0 ? .success(copy) : .failure(.current)
    }

    public func poll(_ fd: Int32, for events: Int16, milliseconds: Int32) -> Result<Int16, Errno> {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let r = Glibc.poll(&entry, 1, milliseconds)
            if r > 0 { return .success(entry.revents) }
            if r == 0 { return .success(0) }
            if errno == EINTR { continue }
            return .failure(.current)
        }
    }

    /// Reads `fd` to its end, but never more than `limit + 1` bytes: a result longer than `limit`
    /// says the input is larger than the caller takes, without reading on (a FIFO or /dev/zero
    /// would never end). ``read(_:into:)`` retries on EINTR; a descriptor someone made
    /// non-blocking (EAGAIN) is waited on until it has input or its writers have gone. The one
    /// read-all of beacon: profiles, credentials and every other whole-file read call it.
    public func readAll(_ fd: Int32, limit: Int) -> Result<[UInt8], Errno> {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(65536, limit + 1))
        while data.count <= limit {
            let want = min(chunk.count, limit + 1 - data.count)
            switch chunk.withUnsafeMutableBytes({ read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }) {
            case .success(0): return .success(data)
            case .success(let n): data += chunk[..<n]
            case .failure(.wouldBlock):
                if case .failure(let error) = pollReadable(fd, milliseconds: -1) { return .failure(error) }
            case .failure(let error): return .failure(error)
            }
        }
        return .success(data)
    }
}
