// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconProfiles
import HCI
import Synchronization
@testable import BeaconEmulator

/// The rotation's schedule when a turn overruns: lateness stays below about a turn and never adds
/// up. A backend that answers at once, except one turn that stalls for five turns' time.
@Suite struct RotationScheduleTests {
    final class StallingBackend: AdvertisingBackend {
        let adapter: AdapterName = "stall"
        let capabilities = ControllerCapabilities.assumedExtended(adapter: "stall", sets: 1)
        let stallAt: Int
        let stall: Duration
        private let transitions = Mutex(0)

        init(stallAt: Int, stall: Duration) {
            self.stallAt = stallAt
            self.stall = stall
        }

        func validate(_ state: AdvertisingState) throws(AdapterError) {}
        func prepare() async throws(AdapterError) {}
        func transition(from old: AdvertisingState, to new: AdvertisingState) async throws(AdapterError) -> Transition {
            let n = transitions.withLock { n in n += 1; return n }
            if n == stallAt { try? await Task.sleep(for: stall) }
            return Transition(selectedTxPower: [:], commands: 4)
        }
        func teardown(timeout: Duration?) async throws(AdapterError) {}
        func restore(_ state: AdvertisingState, after loss: AdvertisingLoss) async throws(AdapterError) -> [UInt8] { [] }
    }

    @Test func aTurnThatStallsForSeveralTurnsReTimesTheRotationInsteadOfRushingTheTurnsItMissed() async throws {
        // Turns of 400 ms; the 3rd transition (the 2nd turn after the setup) stalls 2 s.
        let slot = Duration.milliseconds(400)
        let backend = StallingBackend(stallAt: 3, stall: .seconds(2))
        let latenesses = Mutex<[Int: Duration]>([:])
        let (slots, sink) = AsyncStream.makeStream(of: Int.self)
        let driver = AdapterDriver(backend: backend) { event in
            if case let .slot(_, index, _, lateness) = event {
                latenesses.withLock { $0[index] = lateness }
                sink.yield(index)
            }
        }
        let states: [AdvertisingState] = beacons(2).map { [0: AdvertisingSetConfiguration(handle: 0, beacon: $0)] }
        driver.post(AdapterDriver.Target(generation: 1, states: states, slotDuration: slot))
        let run = Task { await driver.run() }
        var iterator = slots.makeAsyncIterator()
        while let index = await iterator.next(), index < 4 {}
        driver.requestStop()
        _ = await run.value
        let late = latenesses.withLock { $0 }
        // Turn 2 started on time and stalled; turn 3, due 400 ms after it, started about 1.6 s
        // late, and re-timed the rotation from its start: turn 4 is due a turn after turn 3, not
        // 400 ms after turn 3 was due (which would have made it about 1.2 s late, then 0.8 s, …).
        let third = try #require(late[3]), fourth = try #require(late[4])
        #expect(third >= .milliseconds(1500), "\(late)")
        #expect(fourth < .milliseconds(600), "turn 4 was \(fourth) late: the schedule kept the stall's lateness (\(late))")
    }
}
