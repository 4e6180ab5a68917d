// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import HCI
import HCITransport
import Mgmt
import TestControllers
import Testing

@Suite struct MgmtControllerTests {
    @Test func replyIsTypedAndOtherEventsGoToTheStream() async throws {
        let kernel = ScriptedKernel(maxInstances: 4, otherInstances: [2: [0x02, 0x01, 0x06]])
        let session = MgmtController(transport: kernel, index: 0)
        defer { session.close() }
        // Before our command: another program's instance appears, and a reply for another
        // adapter's command; neither may be taken for our reply.
        kernel.inject(.advertisingAdded(instance: 3, index: 0))
        kernel.inject(.commandComplete(MgmtCommandCompleteEvent(opcode: ReadAdvertisingFeatures.opcode, status: .success, returnParameters: [0, 0, 0, 0, 31, 31, 9, 0]), index: 1))
        let features = try await session.send(ReadAdvertisingFeatures())
        #expect(features.maxInstances == 4)
        #expect(features.instances == [2])
        var seen: [MgmtEvent] = []
        for await event in session.events {
            seen.append(event)
            if seen.count == 2 { break }
        }
        #expect(seen.first == .advertisingAdded(instance: 3, index: 0))
        if case let .commandComplete(_, index) = seen.last { #expect(index == 1) } else { Issue.record("got \(seen)") }
    }

    @Test func versionGoesToNoController() async throws {
        let kernel = ScriptedKernel()
        let session = MgmtController(transport: kernel, index: 0)
        defer { session.close() }
        let version = try await session.send(ReadManagementVersionInformation(), index: MgmtPacketHeader.nonController)
        #expect(version.text == "1.22")
        #expect(kernel.received.first?.header.index == 0xFFFF)
    }

    @Test func errorStatusIsExplained() async {
        let kernel = ScriptedKernel()
        kernel.override(AddExtendedAdvertisingParameters.opcode, with: .status(.permissionDenied))
        let session = MgmtController(transport: kernel, index: 0)
        defer { session.close() }
        do {
            try await session.send(AddExtendedAdvertisingParameters(instance: 1, flags: [.useIntervals], minInterval: 160, maxInterval: 160, txPower: 0))
            Issue.record("a refused command succeeded")
        } catch {
            #expect(error.status == .permissionDenied)
            #expect(error.description.contains("Add Extended Advertising Parameters (0x0054) failed: Permission Denied (0x14)"))
            #expect(error.description.contains("setcap cap_net_admin+eip"))
        }
    }

    @Test func unknownCommandAsCommandStatusEndsTheWait() async {
        let kernel = ScriptedKernel(supportsExtendedCommands: false)
        let session = MgmtController(transport: kernel, index: 0)
        defer { session.close() }
        await #expect(throws: MgmtControllerError.self) {
            try await session.send(AddExtendedAdvertisingData(instance: 1, advertisingData: []))
        }
    }

    @Test func silenceTimesOutNamingTheCommand() async throws {
        let kernel = ScriptedKernel()
        kernel.override(RemoveAdvertising.opcode, with: .silence)
        let session = MgmtController(transport: kernel, index: 0, commandTimeout: .milliseconds(200))
        defer { session.close() }
        do {
            try await session.send(RemoveAdvertising(instance: 1))
            Issue.record("no reply, yet success")
        } catch {
            guard case .timeout(let command, _, let adapter, _) = error else { Issue.record("got \(error)"); return }
            #expect(command == "Remove Advertising" && adapter == "mgmt:hci0")
        }
        // The session is still usable after a timeout.
        #expect(try await session.send(ReadAdvertisingFeatures()).maxInstances == 3)
    }

    @Test func aRefusedWriteNamesTheCommand() async throws {
        let kernel = ScriptedKernel()
        kernel.override(ReadAdvertisingFeatures.opcode, with: .writeFails(Errno(rawValue: 12)))
        let session = MgmtController(transport: kernel, index: 0)
        defer { session.close() }
        do {
            try await session.send(ReadAdvertisingFeatures())
            Issue.record("a refused write succeeded")
        } catch {
            #expect(error.description.hasPrefix("Read Advertising Features not sent: mgmt:hci0: write failed"), "\(error)")
        }
        // The session goes on.
        #expect(try await session.send(ReadManagementVersionInformation(), index: 0xFFFF).version == 1)
    }

    @Test func invalidCommandIsNotSent() async {
        let kernel = ScriptedKernel()
        let session = MgmtController(transport: kernel, index: 0)
        defer { session.close() }
        await #expect(throws: MgmtControllerError.self) { try await session.send(AddAdvertising(instance: 0, advertisingData: [])) }
        #expect(kernel.received.isEmpty)
    }

    @Test func permissionAdviceForTheManagementAPINamesOnlyCAPNetAdmin() {
        let error = TransportError.system(SystemCallError(call: "bind(HCI_CHANNEL_CONTROL)", errno: .notPermitted), adapter: "mgmt:hci0")
        #expect(error.description.contains("setcap cap_net_admin+eip"))
        #expect(!error.description.contains("cap_net_raw"))
        let raw = TransportError.system(SystemCallError(call: "bind(hci0)", errno: .notPermitted), adapter: "hci0")
        #expect(raw.description.contains("cap_net_raw,cap_net_admin+eip"))
    }
}
