// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import HCITransport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real calls, except that `connect` fails at once with `error` (a route the kernel refuses)
/// and every descriptor closed is recorded.
final class RefusingConnectCalls: SystemCalls, Sendable {
    let error: Errno
    let closed = Mutex<[Int32]>([])
    init(error: Errno) { self.error = error }
    func connect(_ fd: Int32, to address: UnsafeRawBufferPointer) -> Result<Void, Errno> { .failure(error) }
    func close(_ fd: Int32) {
        closed.withLock { $0.append(fd) }
        LiveSystemCalls().close(fd)
    }
}

/// The real calls, except that `socket` fails with EAFNOSUPPORT (a kernel built without IPv4).
struct NoSocketCalls: SystemCalls {
    func openSocket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, Errno> { .failure(.addressFamilyNotSupported) }
}

/// TCPTransport's calls go through the seam: a failure a loopback listener cannot make comes
/// back as the typed error of the call that failed, and nothing is left open.
@Suite struct TCPTransportSeamTests {
    @Test func aFailedConnectIsTypedAndItsSocketClosed() throws {
        let system = RefusingConnectCalls(error: Errno(rawValue: EHOSTUNREACH))
        let error = #expect(throws: TransportError.self) {
            _ = try TCPTransport.connect(host: "127.0.0.1", port: 9, system: system)
        }
        guard case let .system(failure, adapter) = error else { Issue.record("not a system-call error: \(String(describing: error))"); return }
        #expect(failure == SystemCallError(call: "connect", errno: Errno(rawValue: EHOSTUNREACH)))
        #expect(adapter == "tcp:127.0.0.1:9")
        #expect(system.closed.withLock { $0.count } == 1)
    }

    @Test func aFailedSocketCallIsTyped() throws {
        let error = #expect(throws: TransportError.self) {
            _ = try TCPTransport.connect(host: "127.0.0.1", port: 9, system: NoSocketCalls())
        }
        guard case let .system(failure, _) = error else { Issue.record("not a system-call error: \(String(describing: error))"); return }
        #expect(failure == SystemCallError(call: "socket", errno: .addressFamilyNotSupported))
    }
}
