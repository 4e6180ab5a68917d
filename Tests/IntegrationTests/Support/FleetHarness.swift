// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import Foundation
import HCI
import HCITransport
import Synchronization
import Testing

/// Collects what a fleet reports while it runs.
final class EventRecorder: Sendable {
    private let events = Mutex<[EmulatorEvent]>([])

    var report: @Sendable (EmulatorEvent) -> Void { { [self] e in self.events.withLock { $0.append(e) } } }
    var all: [EmulatorEvent] { events.withLock { $0 } }

    /// The rotation slots the runners carried out, in order.
    var slotIndices: [Int] {
        all.compactMap { if case let .slot(_, index, _, _) = $0 { return index } else { return nil } }
    }

    var errors: [String] {
        all.compactMap { if case let .error(_, message) = $0 { return message.description } else { return nil } }
    }
}

/// The commands `ControllerProbe.probe` may send (reset, version, LE features, BD_ADDR, and the
/// extended read-outs), so a test can tell the probe from the advertising program on the wire.
let probeOpcodes: Set<UInt16> = [0x0C03, 0x1001, 0x2003, 0x1009, 0x203B, 0x203A, 0x204B]

/// One harness, one open connection to it, and a fleet on that connection.
struct FleetHarness {
    let link: BumbleLink
    let connection: AdapterConnection
    let recorder = EventRecorder()

    /// Opens `tcp:127.0.0.1:PORT` to the harness.
    init(_ link: BumbleLink, btsnoop: BTSnoopWriter? = nil) throws {
        self.link = link
        connection = try AdapterConnection.open(.tcp(host: "127.0.0.1", port: link.port), commandTimeout: .seconds(3), btsnoop: btsnoop)
    }

    func fleet(_ planner: FleetPlanner = FleetPlanner(), capabilities: [ControllerCapabilities]? = nil) -> RunningFleet {
        RunningFleet(connections: [connection], planner: planner, capabilities: capabilities, report: recorder.report)
    }

    /// Closes our side; the harness keeps its controller state, like real hardware.
    func close() { connection.close() }

    /// The commands a run must have sent after probing, in order: the preamble, the setup, each
    /// rotation slot the runner reported, and the teardown.
    static func expectedCommands(_ program: AdvertisingProgram, slots: [Int]) -> [any HCICommand] {
        var out = program.preamble + program.setup
        for index in slots { out += program.slots[index % program.slots.count] }
        return out + program.teardown
    }

    /// How many of `wire`'s first commands are the probe's: its read-outs, then (a controller we
    /// own with extended advertising) the trial of ControllerProbe.tryExtendedAdvertising, byte
    /// for byte.
    static func probeCount(_ wire: [HarnessCommand]) -> Int {
        let readOuts = wire.prefix { probeOpcodes.contains($0.opcode) }.count
        let t = ControllerProbe.extendedAdvertisingTrial
        let trial: [any HCICommand] = [t.parameters, t.data, t.removal]
        let next = wire.dropFirst(readOuts).prefix(trial.count)
        let isTrial = next.count == trial.count && zip(next, trial).allSatisfy { sent, want in
            sent.opcode == type(of: want).opcode.rawValue && Hex.string(sent.parameters) == Hex.string(want.parameterBytes)
        }
        return readOuts + (isTrial ? trial.count : 0)
    }

    /// Waits until the harness logged at least `count` commands (its `cmd` lines trail the replies a little).
    func waitForCommands(_ count: Int) async -> Bool {
        await link.waitFor(timeout: .seconds(3)) { $0.commandCount >= count }
    }

    /// Checks that the wire carried exactly `expected` after the probe: same opcodes, same
    /// parameter bytes, all answered with status 0. Returns the wire commands of the program.
    @discardableResult
    func expectWire(_ expected: [any HCICommand], sourceLocation: Testing.SourceLocation = #_sourceLocation) async -> [HarnessCommand] {
        let probeCount = Self.probeCount(link.commands())
        _ = await waitForCommands(probeCount + expected.count)
        let wire = link.commands()
        let program = Array(wire.dropFirst(Self.probeCount(wire)))
        #expect(program.count == expected.count, "commands on the wire after the probe: \(program.count), the program has \(expected.count)",
                sourceLocation: sourceLocation)
        var mismatches = 0
        for (sent, want) in zip(program, expected) {
            let ok = sent.opcode == type(of: want).opcode.rawValue && Hex.string(sent.parameters) == Hex.string(want.parameterBytes) && sent.status == 0
            if !ok {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("on the wire: \(sent); expected \(want) \(Hex.string(want.parameterBytes)) with status 0", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) commands differ from the program", sourceLocation: sourceLocation)
        return program
    }
}

/// Runs `body` with a started harness and always stops it.
func withBumble<T>(_ arguments: [String] = [], _ body: (BumbleLink) async throws -> T) async throws -> T {
    let link = try await BumbleLink.start(arguments)
    defer { link.stop() }
    let result = try await body(link)
    #expect(link.errors.isEmpty, "the harness could not parse what we sent: \(link.errors)")
    return result
}
