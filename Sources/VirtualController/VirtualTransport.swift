// SPDX-License-Identifier: GPL-2.0-or-later
import HCITransport
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `-i virtual`: an `HCITransport` whose controller is a ``VirtualController`` in this process.
///
/// `send` hands the command to the controller; `receive` returns its events one per call,
/// waiting up to the timeout (in 1 ms slices, so events the controller raises on its own, such
/// as LE Advertising Set Terminated, arrive on time). `close` may be called from another
/// thread: a waiting `receive` then throws `closed` within a slice.
public final class VirtualTransport: HCITransport {
    public let controller: VirtualController
    public let adapterName: String
    let closed = Atomic<Bool>(false)

    public init(controller: VirtualController = VirtualController(), adapterName: String = "virtual") {
        self.controller = controller
        self.adapterName = adapterName
    }

    public func send(_ packet: [UInt8]) throws(TransportError) {
        guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
        controller.submit(packet)
    }

    public func receive(timeout: Duration) throws(TransportError) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
            if let event = controller.takeEvent() { return event }
            guard ContinuousClock.now < deadline else { return nil }
            var slice = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            _ = nanosleep(&slice, nil)
        }
    }

    public func close() { closed.store(true, ordering: .releasing) }
}
