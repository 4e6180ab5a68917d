// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import HCITransport
import TestControllers
import Synchronization
import Testing

/// A running fleet against a controller that misbehaves in one scripted way: the run must end,
/// say why, and tell the truth about what may still be on air.
@Suite(.serialized) struct FaultInjectionTests {
    static let disable = LESetExtendedAdvertisingEnable.opcode.rawValue
    /// Each setup command of the run, by opcode, first byte and occurrence: the parameters and
    /// data are the run's from the second on (the first of each is the probe's trial of
    /// extended advertising, ControllerProbe.tryExtendedAdvertising, which leaves any refusal
    /// but Unknown HCI Command to the run).
    static let setupCommands: [(String, UInt16, UInt8?, Int)] = [
        ("preamble: disable all", disable, 0, 1),
        ("preamble: clear sets", LEClearAdvertisingSets.opcode.rawValue, nil, 1),
        ("set parameters", LESetExtendedAdvertisingParameters.opcode.rawValue, nil, 2),
        ("set random address", LESetAdvertisingSetRandomAddress.opcode.rawValue, nil, 1),
        ("set data", LESetExtendedAdvertisingData.opcode.rawValue, nil, 2),
        ("enable", disable, 1, 1),
    ]

    /// Runs four beacons against `rule` until the fleet ends (a failure) or 300 ms pass.
    ///
    /// The peer answers at once, so no command may time out unless the fault makes it: the
    /// command timeout is long (a busy machine never trips it) unless the fault is one that is
    /// only noticed by a timeout; the teardown's is short (every outcome there is a teardown
    /// that failed anyway).
    func run(_ rule: FaultyController.Rule?, commandTimeout: Duration = .seconds(30), options: [String: String] = [:]) async throws -> (FleetOutcome, FaultyController, [EmulatorEvent]) {
        let peer = try FaultyController(rule, options: options)
        let connection = try AdapterConnection.open(.tcp(host: "127.0.0.1", port: peer.port), commandTimeout: commandTimeout)
        defer { connection.close() }
        let events = EventLog()
        let fleet = RunningFleet(connections: [connection], teardownTimeout: .seconds(1), report: events.record)
        do {
            try await fleet.start(beacons(4))
        } catch {
            Issue.record("start threw although the plan is valid: \(error)")
        }
        return (await fleet.run(for: .milliseconds(300)), peer, events.all)
    }

    @Test func everyErrorStatusOnEverySetupCommandIsExplainedAndCleanedUp() async throws {
        for (step, opcode, first, occurrence) in Self.setupCommands {
            for status in UInt8(0x01)...0x45 {
                let rule = FaultyController.Rule(opcode: opcode, occurrence: occurrence, firstByte: first, fault: .status(status))
                let (outcome, peer, _) = try await run(rule)
                #expect(peer.hasStruck, "\(step): \(rule)")
                let failure = try #require(outcome.failure, "\(step), status \(status): the run did not fail").description
                #expect(failure.contains(HCIStatus(rawValue: status).description), "\(step): \(failure)")
                #expect(failure.contains(peer.adapter), "\(step): \(failure)")
                // Every later command is answered, so the teardown works and nothing is left.
                #expect(outcome.teardowns.map(\.teardown) == [.clean], "\(step), status \(status)")
                #expect(peer.controller.activeAdvertisers().isEmpty, "\(step), status \(status)")
            }
        }
    }

    /// The probe's trial of extended advertising refused with anything but Unknown HCI Command
    /// changes nothing: the controller stays extended and the run goes on air (its preamble
    /// clears the set tried); Unknown HCI Command makes it legacy.
    @Test(arguments: [UInt8(0x0C), 0x12, 0x07, 0x01])
    func aRefusedTrialOfExtendedAdvertisingIsTheRunsToMeet(_ status: UInt8) async throws {
        let peer = try FaultyController(.init(opcode: LESetExtendedAdvertisingData.opcode.rawValue, occurrence: 1, fault: .status(status)))
        let connection = try AdapterConnection.open(.tcp(host: "127.0.0.1", port: peer.port), commandTimeout: .seconds(30))
        defer { connection.close() }
        let fleet = RunningFleet(connections: [connection], teardownTimeout: .seconds(1))
        let plan = try await fleet.start(beacons(4))
        #expect(peer.hasStruck)
        let mode = plan.adapters.first?.mode
        #expect(mode == (status == 0x01 ? .legacy : .extendedSets), "status \(status): \(String(describing: mode))")
        let outcome = await fleet.run(for: .milliseconds(300))
        #expect(outcome.failure == nil, "status \(status): \(outcome.failure?.description ?? "")")
        #expect(outcome.teardowns.map(\.teardown) == [.clean], "status \(status)")
    }

    @Test(arguments: [FaultyController.Fault.status(0x0C), .silence, .disconnect, .noCredits, .garbage, .replyToAnotherOpcode])
    func aFailedTeardownNamesWhatMayStillBeOnAir(_ fault: FaultyController.Fault) async throws {
        // The second "disable all" is the teardown's (the first is the preamble's).
        let (outcome, peer, events) = try await run(.init(opcode: Self.disable, occurrence: 2, firstByte: 0, fault: fault))
        #expect(peer.hasStruck)
        #expect(outcome.failure == nil, "the run itself went well: \(outcome.failure?.description ?? "")")
        #expect(!outcome.isClean)
        let left = try #require(outcome.leftOnAir.first, "\(fault): \(outcome.teardowns)")
        #expect(left.beacons == ["b0", "b1", "b2", "b3"], "\(fault)")
        #expect(!events.contains { if case .stopped(_, .clean) = $0 { true } else { false } }, "never a clean stop after \(fault)")
    }

    @Test(arguments: [FaultyController.Fault.silence, .disconnect, .noCredits, .garbage, .replyToAnotherOpcode])
    func aFaultDuringSetupEndsTheRunAndSaysWhatItLeft(_ fault: FaultyController.Fault) async throws {
        // The third set's parameters (the fourth on the wire, after the probe's trial): two sets
        // are configured, one half-way.
        let noticedByTimeout = switch fault { case .silence, .noCredits, .replyToAnotherOpcode: true; default: false }
        let (outcome, peer, _) = try await run(.init(opcode: LESetExtendedAdvertisingParameters.opcode.rawValue, occurrence: 4, fault: fault),
                                               commandTimeout: noticedByTimeout ? .seconds(3) : .seconds(30))
        #expect(peer.hasStruck)
        let failure = try #require(outcome.failure, "\(fault)").description
        #expect(failure.contains(peer.adapter), "\(failure)")
        switch fault {
        case .silence, .disconnect, .noCredits:
            // The controller stays unusable, so the teardown cannot work: nothing is claimed clean.
            #expect(!outcome.isClean && !outcome.leftOnAir.isEmpty, "\(fault): \(outcome.teardowns)")
        default:
            // The controller answers again after the fault, so the teardown removes everything.
            #expect(outcome.teardowns.map(\.teardown) == [.clean], "\(fault): \(outcome.teardowns)")
            #expect(peer.controller.activeAdvertisers().isEmpty)
        }
    }

    @Test func aHardwareErrorStopsTheFleetAndSaysSo() async throws {
        let (outcome, peer, _) = try await run(.init(opcode: Self.disable, occurrence: 1, firstByte: 1, fault: .hardwareError(0x42)))
        #expect(peer.hasStruck)
        let failure = try #require(outcome.failure).description
        #expect(failure.contains("Hardware Error (code 0x42)"), "\(failure)")
        #expect(outcome.teardowns.map(\.teardown) == [.clean])
    }

    @Test func aRefusedUpdateLeavesTheOldBeaconsOnAirAndSaysWhy() async throws {
        let peer = try FaultyController(nil, options: ["version": "4.2", "legacy": "yes"])
        let connection = try AdapterConnection.open(.tcp(host: "127.0.0.1", port: peer.port))
        defer { connection.close() }
        let fleet = RunningFleet(connections: [connection])
        try await fleet.start(beacons(1))
        // 50 ms is below what a 4.2 controller allows for non-connectable advertising.
        let generation = fleet.update(beacons(1, interval: 50))
        guard case .failed(let why) = await fleet.settled(generation) else { Issue.record("the update was applied"); return }
        #expect(why.description.contains("not sent"), "\(why)")
        #expect(peer.controller.activeAdvertisers() == [.legacy], "the old beacon stays on air")
        #expect(await fleet.stop().isClean)
    }
}

/// Collects a fleet's events.
final class EventLog: Sendable {
    private let events = Mutex<[EmulatorEvent]>([])
    var record: @Sendable (EmulatorEvent) -> Void { { [self] e in events.withLock { $0.append(e) } } }
    var all: [EmulatorEvent] { events.withLock { $0 } }
}
