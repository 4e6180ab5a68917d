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

    /// Idle, nothing is due of the controller's own accord (a set without end never stops), so a
    /// receive sleeps out its timeout; a set with a Duration, or an event limit, is due.
    @Test func onlyAnEndingSetIsDue() throws {
        let transport = VirtualTransport(controller: VirtualController(clock: ManualClock()))
        for command: any HCICommand in [nonConnectableSet(1, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)])] {
            try transport.send(command.h4Bytes)
            #expect(try transport.receive(timeout: .milliseconds(100))?[6] == 0x00)
        }
        #expect(transport.controller.timeUntilOwnEvent == nil)
        for command: any HCICommand in [nonConnectableSet(2, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 2, duration: 5)])] {
            try transport.send(command.h4Bytes)
            #expect(try transport.receive(timeout: .milliseconds(100))?[6] == 0x00)
        }
        #expect(transport.controller.timeUntilOwnEvent == .milliseconds(50))
    }

    /// A set's Duration (0.5 s) running out in real time ends a receive that waits far longer:
    /// it looks again when the set is due, not only at its timeout.
    @Test func anEndingSetEndsAWaitingReceive() async throws {
        let transport = VirtualTransport()
        for command: any HCICommand in [
            HCISetEventMask(.default.union(.leMeta)), LESetEventMask(.default.union(.advertisingSetTerminated)),
            nonConnectableSet(3, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 3, duration: 50)]),
        ] {
            try transport.send(command.h4Bytes)
            #expect(try transport.receive(timeout: .milliseconds(100))?[6] == 0x00)
        }
        let started = ContinuousClock.now
        let event = try await Self.receiveOnAThread(transport, timeout: .seconds(60))
        #expect(event?.prefix(5) == [0x04, 0x3E, 0x06, 0x12, 0x3C])
        #expect(ContinuousClock.now - started < .seconds(30))  // a hang bound: the receive's own timeout is 60 s
    }

    /// A report of something heard on the shared air (queued from the air's thread, not by a
    /// command) wakes a waiting receive.
    @Test func aHeardReportWakesAWaitingReceive() async throws {
        let transport = VirtualTransport()
        for command: any HCICommand in [HCISetEventMask(.default.union(.leMeta)), LESetEventMask(.default.union(.advertisingReport)),
                                        LESetScanParameters(), LESetScanEnable(true)] {
            try transport.send(command.h4Bytes)
            #expect(try transport.receive(timeout: .milliseconds(100))?[6] == 0x00)
        }
        let started = ContinuousClock.now
        async let event = Self.receiveOnAThread(transport, timeout: .seconds(60))
        // Time for the receive to be waiting (were it not yet, it would find the report at once:
        // the verdict is the same, only the wake-up would go untested).
        try await Task.sleep(for: .milliseconds(50))
        transport.controller.hear(SharedAirUnitTests.transmission, rssi: -70)
        let report = try await event
        #expect(report?.prefix(2) == [0x04, 0x3E] && report?[3] == 0x02)
        #expect(ContinuousClock.now - started < .seconds(30))  // a hang bound: the receive's own timeout is 60 s
    }

    /// One blocking receive on a plain thread (not Swift's cooperative pool, which it would starve).
    static func receiveOnAThread(_ transport: VirtualTransport, timeout: Duration) async throws -> [UInt8]? {
        let result: Result<[UInt8]?, TransportError> = await withCheckedContinuation { done in
            Thread {
                do throws(TransportError) { done.resume(returning: .success(try transport.receive(timeout: timeout))) } catch {
                    done.resume(returning: .failure(error))
                }
            }.start()
        }
        return try result.get()
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
