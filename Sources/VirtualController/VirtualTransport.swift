// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import HCITransport
import Synchronization

/// `-i virtual`: an `HCITransport` whose controller is a ``VirtualController`` in this process.
///
/// `send` hands the command to the controller and wakes a waiting `receive` at once (the reply
/// is queued by then); `receive` returns the events one per call, waiting up to the timeout.
/// Events the controller raises on its own come on time without polling: a report of something
/// heard on the shared air wakes `receive` (``VirtualController/whenEventQueued(_:)``), and
/// `receive` looks again when an advertising set may end by itself
/// (``VirtualController/timeUntilOwnEvent``). Idle, it sleeps out its timeout: looking every
/// 1 ms, as it once did, cost an idle agent most of its 2–7 % of a core (BENCHMARKS.md).
/// `close` may be called from another thread: a waiting `receive` then throws `closed` at once.
public final class VirtualTransport: HCITransport {
    public let controller: VirtualController
    public let adapterName: String
    let closed = Atomic<Bool>(false)
    /// Signalled by `send` and `close`, so a waiting `receive` need not sleep out its slice.
    private let wake = DispatchSemaphore(value: 0)

    public init(controller: VirtualController = VirtualController(), adapterName: String = "virtual") {
        self.controller = controller
        self.adapterName = adapterName
        controller.whenEventQueued { [wake] in wake.signal() }
    }

    public func send(_ packet: [UInt8]) throws(TransportError) {
        guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
        controller.submit(packet)
        wake.signal()
    }

    public func receive(timeout: Duration) throws(TransportError) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
            if let event = controller.takeEvent() { return event }
            let now = ContinuousClock.now
            guard now < deadline else { return nil }
            var wait = deadline - now
            // An end already due but not yet past on the controller's clock: look again shortly.
            if let own = controller.timeUntilOwnEvent { wait = min(wait, max(own, .milliseconds(1))) }
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(wait / .nanoseconds(1))))
        }
    }

    public func close() {
        closed.store(true, ordering: .releasing)
        wake.signal()
    }
}
