// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import BeaconProfiles
import HCI
import HCITransport
import Synchronization
import VirtualController

/// Rotations on the virtual controller with a manual clock: its air moves only when the test
/// moves the clock, so which sets the controller stops (LE Advertising Set Terminated after
/// Max_Extended_Advertising_Events) is decided by the test, not by the machine's speed. The
/// host's turns are seconds long, so the test moves the clock well before a turn is due.
@Suite(.serialized) struct ControllerTimedTurnTests {
    /// The virtual controller's transport, keeping every command the host sent.
    final class RecordingTransport: HCITransport {
        let inner: VirtualTransport
        private let sent = Mutex<[[UInt8]]>([])
        var adapterName: String { inner.adapterName }

        init(_ inner: VirtualTransport) { self.inner = inner }

        func send(_ packet: [UInt8]) throws(TransportError) {
            sent.withLock { $0.append(packet) }
            try inner.send(packet)
        }

        func receive(timeout: Duration) throws(TransportError) -> [UInt8]? { try inner.receive(timeout: timeout) }
        func close() { inner.close() }

        /// The commands sent so far, decoded.
        var commands: [HCICommandPacket] {
            sent.withLock { $0 }.compactMap { bytes in
                guard bytes.count >= 4, bytes[0] == 0x01 else { return nil }
                return HCICommandPacket(opcode: HCIOpcode(rawValue: UInt16(bytes[1]) | UInt16(bytes[2]) << 8), parameters: Array(bytes[4...]))
            }
        }
    }

    /// A fleet on a 2-set virtual controller driven by `clock`, and what it reports.
    final class TimingLog: Sendable {
        let values = Mutex<[Bool]>([])
        var all: [Bool] { values.withLock { $0 } }
    }

    struct Bench {
        let controller: VirtualController
        let transport: RecordingTransport
        let fleet: RunningFleet
        let slots: AsyncStream<Int>
        let timing: TimingLog

        init(clock: ManualClock, slot: Duration) {
            var configuration = VirtualController.Configuration()
            configuration.advertisingSets = 2
            controller = VirtualController(configuration: configuration, clock: clock)
            transport = RecordingTransport(VirtualTransport(controller: controller))
            let hci = HCIController(transport: transport, commandTimeout: .seconds(30))
            let connection = AdapterConnection(spec: .virtual(options: [:]), hci: hci, virtual: controller)
            let (slots, sink) = AsyncStream.makeStream(of: Int.self)
            let timing = TimingLog()
            self.slots = slots
            self.timing = timing
            // Commands at 1 ms whatever the probe measures on a busy machine: the events per turn
            // the test expects do not depend on the load.
            let planner = FleetPlanner(slotDuration: slot, maximumSilence: .seconds(600), commandTime: .milliseconds(1))
            fleet = RunningFleet(connections: [connection], planner: planner) { event in
                if case let .slot(_, index, _, _) = event { sink.yield(index) }
                if case let .turnTiming(_, byController) = event { timing.values.withLock { $0.append(byController) } }
            }
        }

        /// The commands of each turn after the setup, up to the teardown: each ends with an enable.
        func turns() -> [[HCICommandPacket]] {
            let all = transport.commands
            let enable = LESetExtendedAdvertisingEnable.opcode
            guard let setupEnd = all.firstIndex(where: { $0.opcode == enable && $0.parameters.first == 1 }) else { return [] }
            var turns: [[HCICommandPacket]] = []
            var current: [HCICommandPacket] = []
            for c in all[(setupEnd + 1)...] {
                // The teardown: disable every set (Num_Sets 0), then clear.
                if c.opcode == enable, c.parameters == [0, 0] { break }
                current.append(c)
                if c.opcode == enable, c.parameters.first == 1 {
                    turns.append(current)
                    current = []
                }
            }
            return turns
        }
    }

    static func describe(_ turn: [HCICommandPacket]) -> [String] {
        turn.map { c in
            switch c.opcode {
            case LESetExtendedAdvertisingEnable.opcode:
                // Enable, then (handle, max events) per set.
                let sets = stride(from: 2, to: c.parameters.count, by: 4).map { "\(c.parameters[$0])x\(c.parameters[$0 + 3])" }
                return "\(c.parameters[0] == 1 ? "enable" : "disable") \(sets.joined(separator: ","))"
            case LESetAdvertisingSetRandomAddress.opcode: return "address \(c.parameters[0])"
            case LESetExtendedAdvertisingData.opcode: return "data \(c.parameters[0])"
            case LESetExtendedAdvertisingParameters.opcode: return "parameters \(c.parameters[0])"
            default: return "\(c.opcode)"
            }
        }
    }

    @Test func theControllerStopsEachSetAfterExactlyItsEvents() async throws {
        let clock = ManualClock()
        // 4 beacons on 2 sets, 1 s apart, 3 s turns: 3 events per turn.
        let bench = Bench(clock: clock, slot: .seconds(3))
        let plan = try await bench.fleet.start(beacons(4, interval: 1000))
        #expect(plan.adapters[0].eventsPerTurn == 3...3)
        var slots = bench.slots.makeAsyncIterator()
        for turn in 1...3 {
            // Past the third event (at +2 s) of both sets: both stop by themselves, so the turn
            // that follows (on the host's 3 s timer) needs no disable.
            clock.advance(by: .milliseconds(2500))
            #expect(await slots.next() == turn)
        }
        let outcome = await bench.fleet.stop()
        #expect(outcome.isClean)
        #expect(bench.timing.all == [true])
        // Each set: three turns, alternating beacons, exactly three events each.
        let log = bench.controller.airLog()
        for set in [VirtualAdvertiser.set(0), .set(1)] {
            var runs: [(address: BluetoothAddress, count: Int)] = []
            for e in log where e.advertiser == set {
                if runs.last?.address == e.address { runs[runs.count - 1].count += 1 } else { runs.append((e.address, 1)) }
            }
            #expect(runs.map(\.count) == [3, 3, 3], "\(set): \(runs)")
            #expect(Set(runs.map(\.address)).count == 2)
        }
        // The sets stopped by themselves, so a turn needs no disable: new address and data for
        // both sets, and one enable for both with their 3 events.
        let turns = bench.turns()
        #expect(turns.count == 3)
        for turn in turns {
            #expect(Self.describe(turn) == ["address 0", "address 1", "data 0", "data 1", "enable 0x3,1x3"])
        }
    }

    @Test func withoutTheControllersStopsTheHostTimesTurnsAndBatchesThem() async throws {
        // The clock never moves: no set ever sends an event, so none stops and every turn is the
        // host's (short turns). Each turn is one disable for both sets and one enable for both.
        let clock = ManualClock()
        let bench = Bench(clock: clock, slot: .milliseconds(50))
        try await bench.fleet.start(beacons(4, interval: 100))
        var slots = bench.slots.makeAsyncIterator()
        for turn in 1...3 { #expect(await slots.next() == turn) }
        let outcome = await bench.fleet.stop()
        #expect(outcome.isClean)
        #expect(bench.timing.all.isEmpty)
        let turns = bench.turns()
        #expect(turns.count >= 3)
        for turn in turns {
            #expect(Self.describe(turn) == ["disable 0x0,1x0", "address 0", "address 1", "data 0", "data 1", "enable 0x1,1x1"])
        }
    }

    @Test func aControllerThatStopsNoMoreIsCaughtByTheBackstop() async throws {
        // 2 s turns, 1 s apart: 2 events per turn. In the first turn the controller stops both
        // sets (the clock passes both events); then the clock stands still, as if the controller
        // ignored the limit: the second turn waits for its sets past its due time, up to the
        // backstop (a turn and 200 ms more), then the host ends it with a disable and times the
        // turns again.
        let clock = ManualClock()
        let bench = Bench(clock: clock, slot: .seconds(2))
        try await bench.fleet.start(beacons(4, interval: 1000))
        var slots = bench.slots.makeAsyncIterator()
        clock.advance(by: .milliseconds(1500))
        #expect(await slots.next() == 1)
        #expect(await slots.next() == 2)
        let outcome = await bench.fleet.stop()
        #expect(outcome.isClean)
        #expect(bench.timing.all == [true, false])
        let turns = bench.turns().map(Self.describe)
        #expect(turns.prefix(2) == [
            ["address 0", "address 1", "data 0", "data 1", "enable 0x2,1x2"],
            ["disable 0x0,1x0", "address 0", "address 1", "data 0", "data 1", "enable 0x2,1x2"],
        ])
    }
}
