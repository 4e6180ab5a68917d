// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import Foundation
import HCI
import HCITransport

@Suite struct HCIControllerTests {
    func session(_ peer: ScriptedPeer, timeout: Duration = .seconds(2), snoop: BTSnoopWriter? = nil) throws -> HCIController {
        HCIController(transport: try TCPTransport.connect(host: "127.0.0.1", port: peer.port), commandTimeout: timeout, btsnoop: snoop)
    }

    @Test func commandGetsItsTypedReply() async throws {
        // Read Local Version Information: HCI 5.2 (0x0B), revision 0x1234, LMP 0x0B, manufacturer 0x0002, subversion 0x5678.
        let peer = try ScriptedPeer { c in commandComplete(c.opcode, [0x0B, 0x34, 0x12, 0x0B, 0x02, 0x00, 0x78, 0x56]) }
        let hci = try session(peer)
        let version = try await hci.send(HCIReadLocalVersionInformation())
        #expect(version.hciVersion == HCIVersion(rawValue: 0x0B))
        #expect(version.manufacturer == 2)
        #expect(peer.commands.map(\.opcode) == [HCIReadLocalVersionInformation.opcode])
        hci.close()
    }

    @Test func silentPeerTimesOutNamingCommandAndAdapter() async throws {
        let peer = try ScriptedPeer { _ in nil }
        let hci = try session(peer, timeout: .milliseconds(500))
        let start = ContinuousClock.now
        let error = await #expect(throws: HCIControllerError.self) { try await hci.send(HCIReset()) }
        #expect(ContinuousClock.now - start < .seconds(10)) // a hang detector, not a speed test (speeds are in BENCHMARKS.md)
        let text = error?.description ?? ""
        #expect(text.contains("Reset"))
        #expect(text.contains("tcp:127.0.0.1:\(peer.port)"))
        #expect(text.contains("500 ms"))
        hci.close()
    }

    @Test func errorStatusIsExplained() async throws {
        let peer = try ScriptedPeer { c in commandComplete(c.opcode, status: 0x0C) }
        let hci = try session(peer)
        let error = await #expect(throws: HCIControllerError.self) { try await hci.send(LESetAdvertisingEnable(true)) }
        #expect(error?.status == .commandDisallowed)
        #expect(error?.description.contains("LE Set Advertising Enable") == true)
        hci.close()
    }

    @Test func failedCommandStatusEndsTheWait() async throws {
        // Some controllers answer an unknown command with Command Status 0x01 instead of Complete.
        let peer = try ScriptedPeer { c in HCIEventPacket(code: 0x0F, parameters: [0x01, 0x01, UInt8(c.opcode.rawValue & 0xFF), UInt8(c.opcode.rawValue >> 8)]).h4Bytes }
        let hci = try session(peer)
        let error = await #expect(throws: HCIControllerError.self) { try await hci.send(HCIReset()) }
        #expect(error?.status == .unknownCommand)
        hci.close()
    }

    @Test func peerClosingMidCommandIsAnError() async throws {
        let peer = try ScriptedPeer { _ in [] }
        let hci = try session(peer)
        let error = await #expect(throws: HCIControllerError.self) { try await hci.send(HCIReset()) }
        #expect(error?.description.contains("closed") == true)
    }

    @Test func garbageIsAClearErrorNotAHang() async throws {
        let peer = try ScriptedPeer { _ in [0x7F, 0x00, 0x01] }
        let hci = try session(peer, timeout: .seconds(60))
        let start = ContinuousClock.now
        let error = await #expect(throws: HCIControllerError.self) { try await hci.send(HCIReset()) }
        // Well before the command's timeout: the garbage ended the wait, however busy the machine.
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(error?.description.contains("not an H4 packet indicator") == true)
        hci.close()
    }

    @Test func zeroCreditsHoldTheNextCommandUntilTheControllerGivesOne() async throws {
        // First reply grants no further command; a No-Op Command Complete (opcode 0) 300 ms later does.
        let peer = try ScriptedPeer { c in
            if c.opcode == HCIReset.opcode {
                return commandComplete(c.opcode, credits: 0)
            }
            return commandComplete(c.opcode)
        }
        let hci = try session(peer)
        try await hci.send(HCIReset())
        let second = Task { try await hci.send(LESetAdvertisingEnable(false), timeout: .seconds(2)) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(peer.commands.count == 1)  // held back: no credit
        // Nothing grants credit here, so the held command must time out rather than wait forever.
        await #expect(throws: HCIControllerError.self) { try await second.value }
        hci.close()
    }

    @Test func otherEventsArriveOnTheStream() async throws {
        // Reply to Reset and also send a Hardware Error event.
        let peer = try ScriptedPeer { c in commandComplete(c.opcode) + HCIEventPacket(code: 0x10, parameters: [0x42]).h4Bytes }
        let hci = try session(peer)
        try await hci.send(HCIReset())
        var iterator = hci.events.makeAsyncIterator()
        let event = await iterator.next()
        guard case .hardwareError(let e)? = event else { Issue.record("expected Hardware Error, got \(String(describing: event))"); return }
        #expect(e.hardwareCode == 0x42)
        hci.close()
    }

    @Test func btsnoopRecordsBothDirections() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let peer = try ScriptedPeer { c in commandComplete(c.opcode) }
        let hci = try session(peer, snoop: try BTSnoopWriter(path: path))
        try await hci.send(HCIReset())
        hci.close()
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(data.prefix(8)) == Array("btsnoop\u{0}".utf8))
        #expect(Array(data[8..<16]) == [0, 0, 0, 1, 0, 0, 0x03, 0xEA])  // version 1, datalink 1002
        // Record 1: sent command 01 03 0C 00, flags 2 (command, sent).
        #expect(Array(data[16..<20]) == [0, 0, 0, 4])
        #expect(Array(data[24..<28]) == [0, 0, 0, 2])
        #expect(Array(data[40..<44]) == [0x01, 0x03, 0x0C, 0x00])
        // Timestamp: microseconds since year 0; minus Wireshark's 1970 offset it is about now.
        let stamp = data[32..<40].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let unixSeconds = Double(stamp - 0x00DC_DDB3_0F2F_8000) / 1e6
        #expect(abs(unixSeconds - Date().timeIntervalSince1970) < 60, "btsnoop time \(unixSeconds)")
        // Record 2: received event, flags 3 (event, received).
        #expect(Array(data[44 + 8..<44 + 12]) == [0, 0, 0, 3])
        #expect(Array(data[44 + 24..<44 + 31]) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
    }
}
