// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Synchronization

/// A transport over one file descriptor: the kernel's HCI sockets, a TCP connection, a UART.
public final class FileDescriptorTransport: HCITransport {
    public let adapterName: String
    /// The descriptor (allocated until the transport goes away, see `deinit`).
    public let fd: Int32
    let system: any SystemCalls
    /// Reads wait in slices this long so that `close()` from another thread is noticed quickly.
    static let pollSlice: Duration = .milliseconds(50)
    private let closed = Atomic<Bool>(false)

    public init(fd: Int32, adapterName: String, system: any SystemCalls = LiveSystemCalls()) {
        self.fd = fd
        self.adapterName = adapterName
        self.system = system
    }

    /// The descriptor is released only here, when nothing can use it any more. Closing it in
    /// ``close()`` would let its number be reused at once (by the next socket the process opens)
    /// while the reader thread is still in its last poll or read on it: that thread would then
    /// read, and lose, the new connection's bytes.
    deinit {
        close()
        system.close(fd)
    }

    public func send(_ packet: [UInt8]) throws(TransportError) {
        guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
        if let e = packet.withUnsafeBytes({ system.writeAll(fd, from: $0) }) {
            throw .system(SystemCallError(call: "write", errno: e), adapter: adapterName)
        }
    }

    public func receive(timeout: Duration) throws(TransportError) -> [UInt8]? {
        var remaining = timeout
        while true {
            guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
            let slice = min(remaining, Self.pollSlice)
            switch system.pollReadable(fd, milliseconds: slice.pollMilliseconds) {
            case .failure(let e): throw .system(SystemCallError(call: "poll", errno: e), adapter: adapterName)
            case .success(false):
                remaining -= slice
                if remaining <= .zero { return nil }
                continue
            case .success(true):
                var buffer = [UInt8](repeating: 0, count: 1024)
                let r = buffer.withUnsafeMutableBytes { system.read(fd, into: $0) }
                switch r {
                case .success(0): throw .closed(adapter: adapterName)
                case .success(let n): return Array(buffer.prefix(n))
                case .failure(let e) where e == .wouldBlock: continue
                case .failure(let e): throw .system(SystemCallError(call: "read", errno: e), adapter: adapterName)
                }
            }
        }
    }

    /// Ends the transport: later calls fail with `.closed`, and a reader waiting on a socket wakes
    /// at once (shutdown), on another descriptor within its poll slice. The descriptor itself is
    /// released when the transport goes away (see `deinit`).
    public func close() {
        if closed.exchange(true, ordering: .acquiringAndReleasing) == false {
            system.shutdown(fd)
        }
    }
}
