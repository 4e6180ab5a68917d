// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import HCITransport
import Synchronization
import VirtualController

/// The built-in virtual controller as a raw HCI socket sees a kernel adapter: beacon's commands
/// and their replies, and also the Command Complete events of the commands the kernel sends on
/// its own (``kernelSends(_:)``): what powering the adapter off and on, or the kernel pausing
/// advertising, looks like to beacon's watchdog.
public final class SharedKernelTransport: HCITransport, Sendable {
    public let controller: VirtualController
    public let adapterName: String
    private let closed = Atomic<Bool>(false)
    private let down = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let refusalSink: AsyncStream<Void>.Continuation
    /// One element per write refused because the adapter is down.
    public let refusals: AsyncStream<Void>

    public init(controller: VirtualController = VirtualController(), adapterName: String = "hci0") {
        self.controller = controller
        self.adapterName = adapterName
        (refusals, refusalSink) = AsyncStream.makeStream(of: Void.self)
    }

    /// The adapter powered off (true) or on again: while down, writes fail with ENETDOWN, as the
    /// kernel's raw socket refuses them (the controller itself keeps its state).
    public func setDown(_ isDown: Bool) {
        down.store(isDown, ordering: .releasing)
    }

    /// The kernel sends `command` (H4 bytes) to the controller; its reply reaches beacon's socket.
    public func kernelSends(_ command: [UInt8]) {
        controller.submit(command)
        wake.signal()
    }

    public func send(_ packet: [UInt8]) throws(TransportError) {
        guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
        if down.load(ordering: .acquiring) {
            refusalSink.yield()
            throw .system(SystemCallError(call: "write", errno: .networkDown), adapter: adapterName)
        }
        controller.submit(packet)
        wake.signal()
    }

    public func receive(timeout: Duration) throws(TransportError) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard !closed.load(ordering: .acquiring) else { throw .closed(adapter: adapterName) }
            if let event = controller.takeEvent() { return event }
            guard ContinuousClock.now < deadline else { return nil }
            _ = wake.wait(timeout: .now() + .milliseconds(1))
        }
    }

    public func close() {
        closed.store(true, ordering: .releasing)
        wake.signal()
    }
}
