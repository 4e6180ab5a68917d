// SPDX-License-Identifier: GPL-2.0-or-later
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
    private let wake = DispatchSemaphore(value: 0)

    public init(controller: VirtualController = VirtualController(), adapterName: String = "hci0") {
        self.controller = controller
        self.adapterName = adapterName
    }

    /// The kernel sends `command` (H4 bytes) to the controller; its reply reaches beacon's socket.
    public func kernelSends(_ command: [UInt8]) {
        controller.submit(command)
        wake.signal()
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
            guard ContinuousClock.now < deadline else { return nil }
            _ = wake.wait(timeout: .now() + .milliseconds(1))
        }
    }

    public func close() {
        closed.store(true, ordering: .releasing)
        wake.signal()
    }
}
