// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport
import Synchronization
import Testing
import Foundation
@testable import VirtualController

@Suite struct VirtualTransportTests {
    @Test func roundTrip() throws {
        let transport = VirtualTransport(controller: VirtualController(clock: ManualClock()))
        #expect(transport.adapterName == "virtual")
        try transport.send(HCIReset().h4Bytes)
        try transport.send(LEReadNumberOfSupportedAdvertisingSets().h4Bytes)
        // One event per call, in order, then nothing.
        #expect(try transport.receive(timeout: .milliseconds(100)) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        let second = try #require(try transport.receive(timeout: .milliseconds(100)))
        let event = try HCIEvent(bytes: Array(second.dropFirst()))
        guard case let .commandComplete(complete) = event else { Issue.record("expected Command Complete"); return }
        #expect(try complete.result(for: LEReadNumberOfSupportedAdvertisingSets.self).numberOfSets == 16)
        #expect(try transport.receive(timeout: .milliseconds(5)) == nil)
    }

    @Test func timeoutWaitsAboutThatLong() throws {
        let transport = VirtualTransport()
        let start = ContinuousClock.now
        #expect(try transport.receive(timeout: .milliseconds(30)) == nil)
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(30) && waited < .seconds(10)) // a hang detector, not a speed test (speeds are in BENCHMARKS.md)
    }

    /// An event the controller raises by itself (a set's duration running out) reaches a
    /// waiting receive.
    @Test func spontaneousEventArrivesDuringReceive() throws {
        let clock = ManualClock()
        let transport = VirtualTransport(controller: VirtualController(clock: clock))
        for command: any HCICommand in [
            HCISetEventMask(.default.union(.leMeta)), LESetEventMask(.default.union(.advertisingSetTerminated)),
            nonConnectableSet(3, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 3, duration: 1)]),
        ] {
            try transport.send(command.h4Bytes)
            #expect(try transport.receive(timeout: .milliseconds(100))?[6] == 0x00)
        }
        clock.advance(by: .milliseconds(20))
        #expect(try transport.receive(timeout: .milliseconds(100)) == [0x04, 0x3E, 0x06, 0x12, 0x3C, 0x03, 0x00, 0x00, 0x01])
    }

    @Test func closeFromAnotherThread() async throws {
        let transport = VirtualTransport()
        let started = ContinuousClock.now
        // The blocking receive runs on a plain thread: on Swift's cooperative pool (two threads on
        // two cores) it could starve the rest of the test run, this test's own sleep included.
        async let outcome: Result<[UInt8]?, TransportError> = withCheckedContinuation { done in
            Thread {
                do throws(TransportError) { done.resume(returning: .success(try transport.receive(timeout: .seconds(60)))) } catch {
                    done.resume(returning: .failure(error))
                }
            }.start()
        }
        try await Task.sleep(for: .milliseconds(50))
        transport.close()
        let result = await outcome
        #expect(result == .failure(.closed(adapter: "virtual")))
        // Well before the receive's own timeout: the close ended it.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(throws: TransportError.closed(adapter: "virtual")) { try transport.send(HCIReset().h4Bytes) }
    }
}
