// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import Foundation
import HCI
import HCITransport
import Synchronization

/// Several commands in flight when the controller's Num_HCI_Command_Packets allows it (Core Vol 4
/// Part E §4.4), never more, replies matched to commands by opcode, oldest first. The scripted
/// peer decides when to answer from what it has received, never from the clock: each verdict
/// holds however slow the machine is (a host that kept one command in flight would deadlock
/// against these peers and fail by its command timeout).
@Suite struct CommandPipeliningTests {
    func session(_ peer: ScriptedPeer, timeout: Duration = .seconds(20)) throws -> HCIController {
        HCIController(transport: try TCPTransport.connect(host: "127.0.0.1", port: peer.port), commandTimeout: timeout)
    }

    static func data(_ handle: UInt8) -> LESetExtendedAdvertisingData {
        LESetExtendedAdvertisingData(handle: handle, operation: .complete, avoidFragmentation: true, data: [0x02, 0x01, 0x06])
    }

    /// What the peer has received and not yet answered, oldest first.
    final class Outstanding: Sendable {
        let state = Mutex<(waiting: [HCICommandPacket], received: Int, most: Int)>(([], 0, 0))
    }

    @Test func withFourCreditsFourCommandsAreInFlightBeforeAnyReply() async throws {
        // Reset grants 4 credits; the peer then answers nothing until all four data commands are
        // in, and answers them last first (all the same opcode, so the host pairs them in order).
        let outstanding = Outstanding()
        let peer = try ScriptedPeer { c in
            if c.opcode == HCIReset.opcode { return commandComplete(c.opcode, credits: 4) }
            return outstanding.state.withLock { s in
                s.waiting.append(c)
                guard s.waiting.count == 4 else { return nil }
                defer { s.waiting = [] }
                return s.waiting.reversed().flatMap { commandComplete($0.opcode, credits: 4) }
            }
        }
        let hci = try session(peer)
        try await hci.send(HCIReset())
        let replies = try await hci.sendAll((0..<4).map { Self.data($0) })
        #expect(replies.count == 4)
        #expect(replies.allSatisfy { $0.opcode == LESetExtendedAdvertisingData.opcode && $0.status == .success })
        // On the wire in the order given.
        #expect(peer.commands.dropFirst().map { $0.parameters.first } == [0, 1, 2, 3])
        hci.close()
    }

    @Test func repliesOutOfOrderGoToTheirCommandsByOpcode() async throws {
        // Parameters then data for two sets, all in flight; the peer answers the data first and
        // the parameters last, each parameters reply with its own selected TX power.
        let outstanding = Outstanding()
        let peer = try ScriptedPeer { c in
            if c.opcode == HCIReset.opcode { return commandComplete(c.opcode, credits: 8) }
            return outstanding.state.withLock { s in
                s.waiting.append(c)
                guard s.waiting.count == 4 else { return nil }
                let data = s.waiting.filter { $0.opcode == LESetExtendedAdvertisingData.opcode }
                let parameters = s.waiting.filter { $0.opcode == LESetExtendedAdvertisingParameters.opcode }
                // Selected TX power = 10 + the handle, so a mix-up shows.
                return data.flatMap { commandComplete($0.opcode, credits: 8) }
                    + parameters.flatMap { commandComplete($0.opcode, credits: 8, [UInt8(10 + $0.parameters[0])]) }
            }
        }
        let hci = try session(peer)
        try await hci.send(HCIReset())
        let parameters = (0..<2).map { h in
            LESetExtendedAdvertisingParameters(handle: UInt8(h), eventProperties: .legacyNonConnectable, intervalMin: 160, intervalMax: 160,
                                               ownAddressType: .random, txPower: 0)
        }
        let commands: [any HCICommand] = parameters + [Self.data(0), Self.data(1)]
        let replies = try await hci.sendAll(commands)
        #expect(replies.map(\.opcode) == commands.map { type(of: $0).opcode })
        #expect(try replies[0].result(for: LESetExtendedAdvertisingParameters.self).selectedTxPower == 10)
        #expect(try replies[1].result(for: LESetExtendedAdvertisingParameters.self).selectedTxPower == 11)
        hci.close()
    }

    @Test func neverMoreInFlightThanTheControllerAllows() async throws {
        // Every reply says 2: the peer answers the oldest command only when two wait (or when the
        // last has arrived), and notes the most that ever waited.
        let outstanding = Outstanding()
        let total = 6
        let peer = try ScriptedPeer { c in
            if c.opcode == HCIReset.opcode { return commandComplete(c.opcode, credits: 2) }
            return outstanding.state.withLock { s in
                s.waiting.append(c)
                s.received += 1
                s.most = max(s.most, s.waiting.count)
                if s.received == total {
                    defer { s.waiting = [] }
                    return s.waiting.flatMap { commandComplete($0.opcode, credits: 2) }
                }
                guard s.waiting.count == 2 else { return nil }
                return commandComplete(s.waiting.removeFirst().opcode, credits: 2)
            }
        }
        let hci = try session(peer)
        try await hci.send(HCIReset())
        let replies = try await hci.sendAll((0..<UInt8(total)).map { Self.data($0) })
        #expect(replies.count == total)
        let most = outstanding.state.withLock { $0.most }
        #expect(most == 2, "at most two in flight, and two were")
        hci.close()
    }

    @Test func aFailedCommandStopsTheBatchAndIsReported() async throws {
        // One credit: the second command waits for the first's reply, which is an error, so the
        // second and third are never sent.
        let peer = try ScriptedPeer { c in
            if c.opcode == LESetExtendedAdvertisingData.opcode, c.parameters.first == 0 {
                return commandComplete(c.opcode, status: 0x12)
            }
            return commandComplete(c.opcode)
        }
        let hci = try session(peer)
        let error = await #expect(throws: HCIControllerError.self) {
            try await hci.sendAll([Self.data(0), Self.data(1), Self.data(2)])
        }
        #expect(error?.status == .invalidCommandParameters)
        #expect(peer.commands.count == 1)
        hci.close()
    }

    @Test func aSilentControllerEndsTheBatchWithATimeout() async throws {
        let peer = try ScriptedPeer { c in c.opcode == HCIReset.opcode ? commandComplete(c.opcode, credits: 3) : nil }
        let hci = try session(peer, timeout: .milliseconds(300))
        try await hci.send(HCIReset())
        let error = await #expect(throws: HCIControllerError.self) { try await hci.sendAll([Self.data(0), Self.data(1)]) }
        #expect(error?.description.contains("no reply") == true)
        // Both went out (three credits were free) and each timed out: the batch ended, nothing hangs.
        #expect(peer.commands.count == 3)
        hci.close()
    }
}
