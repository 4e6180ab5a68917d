// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Mgmt
import Testing

@Suite struct MgmtEventTests {
    @Test func commandCompleteOfAddExtendedAdvertisingParameters() throws {
        // Event 0x0001, hci0, 7 octets: opcode 0x0054, status 0, instance 1, TX −7, 31, 31.
        let bytes: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x54, 0x00, 0x00, 0x01, 0xF9, 0x1F, 0x1F]
        let event = try MgmtEvent(bytes: bytes)
        guard case let .commandComplete(complete, index) = event else { Issue.record("decoded \(event)"); return }
        #expect(index == 0 && complete.opcode == AddExtendedAdvertisingParameters.opcode && complete.status.isSuccess)
        #expect(try complete.result(for: AddExtendedAdvertisingParameters.self).txPower == -7)
        #expect(event.packet.bytes == bytes)
    }

    @Test func commandStatusCarriesANamedExplainedStatus() throws {
        let event = try MgmtEvent(bytes: [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x3E, 0x00, 0x14])
        guard case let .commandStatus(status, _) = event else { Issue.record("decoded \(event)"); return }
        #expect(status.opcode == AddAdvertising.opcode)
        #expect(status.status == .permissionDenied)
        #expect(status.status.userMessage.description.hasPrefix("Permission Denied (0x14): "))
        #expect(status.status.userMessage.description.contains("setcap cap_net_admin+eip"))
    }

    @Test func everyDocumentedStatusHasANameAndAdvice() {
        for code in UInt8(0x00)...0x14 {
            let status = MgmtStatus(rawValue: code)
            #expect(status.name != nil && status.explanation != nil, "status 0x\(String(code, radix: 16))")
        }
        #expect(MgmtStatus(rawValue: 0x15).name == nil)
        #expect(MgmtStatus(rawValue: 0x15).description == "Unknown management status (0x15)")
    }

    @Test func advertisingAndIndexEvents() throws {
        #expect(try MgmtEvent(bytes: [0x23, 0x00, 0x00, 0x00, 0x01, 0x00, 0x05]) == .advertisingAdded(instance: 5, index: 0))
        #expect(try MgmtEvent(bytes: [0x24, 0x00, 0x01, 0x00, 0x01, 0x00, 0x02]) == .advertisingRemoved(instance: 2, index: 1))
        #expect(try MgmtEvent(bytes: [0x04, 0x00, 0x02, 0x00, 0x00, 0x00]) == .indexAdded(index: 2))
        #expect(try MgmtEvent(bytes: [0x05, 0x00, 0x02, 0x00, 0x00, 0x00]) == .indexRemoved(index: 2))
        // New Settings (0x0006) is kept as it came.
        #expect(try MgmtEvent(bytes: [0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 1, 2, 3, 4]) == .other(code: 6, index: 0, parameters: [1, 2, 3, 4]))
    }

    @Test func lengthMustMatch() {
        #expect(throws: HCIDecodingError.self) { _ = try MgmtEvent(bytes: [0x23, 0x00, 0x00, 0x00, 0x02, 0x00, 0x05]) }
        #expect(throws: HCIDecodingError.self) { _ = try MgmtEvent(bytes: [0x23, 0x00, 0x00]) }
        #expect(throws: HCIDecodingError.self) { _ = try MgmtEvent(bytes: [0x24, 0x00, 0x00, 0x00, 0x02, 0x00, 0x05, 0x06]) }
    }
}
