// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing

/// Events other than Command Complete, bytes written by hand from Core Vol 4 Part E §7.7.
@Suite("HCI events decode and encode byte-exact")
struct EventTests {
    @Test func commandStatus() throws {
        // > HCI Event: Command Status (0x0f) plen 4 — LE Set Advertising Parameters (0x08|0x0006) ncmd 1, Status: Success (0x00)
        let hex = bytes("0F 04 00 01 06 20")
        let event = try HCIEvent(bytes: hex)
        #expect(event == .commandStatus(.init(status: .success, numHCICommandPackets: 1, opcode: LESetAdvertisingParameters.opcode)))
        #expect(event.packet.bytes == hex)
    }

    @Test func hardwareError() throws {
        // > HCI Event: Hardware Error (0x10) plen 1 — Code: 0x2a
        let event = try HCIEvent(bytes: bytes("10 01 2A"))
        #expect(event == .hardwareError(.init(hardwareCode: 0x2A)))
        #expect(event.packet.h4Bytes == bytes("04 10 01 2A"))
    }

    @Test func leAdvertisingReport() throws {
        // > HCI Event: LE Meta Event (0x3e) plen 42 — LE Advertising Report (0x02), Num reports: 1
        //   Event type: Non connectable undirected - ADV_NONCONN_IND (0x03), Address type: Random (0x01),
        //   Address: C0:11:22:33:44:55 (Static), Data length: 30, <iBeacon data>, RSSI: -60 dBm (0xc4)
        let hex = bytes("3E 2A 02 01 03 01 55 44 33 22 11 C0 1E") + appleExampleAdvertisingData + [0xC4]
        let event = try HCIEvent(bytes: hex)
        let expected = LEAdvertisingReportEvent(reports: [
            .init(eventType: .advNonconnInd, addressType: .random, address: staticAddress,
                  data: AdvertisingPayload(appleExampleAdvertisingData)!, rssi: -60),
        ])
        #expect(event == .leAdvertisingReport(expected))
        #expect(expected.packet.bytes == hex)
        // The payload the codec decodes is the same one the report carried.
        guard case let .leAdvertisingReport(report) = event else { return }
        #expect(try IBeacon(decoding: report.reports[0].data).major == 1)
    }

    @Test func leAdvertisingReportWithTwoReportsIsInterleavedPerReport() throws {
        // Two reports, each laid out Event_Type, Address_Type, Address, Data_Length, Data, RSSI.
        let hex = bytes("3E 19 02 02  00 00 06 05 04 03 02 01 03 02 01 06 D8  04 01 55 44 33 22 11 C0 00 7F")
        guard case let .leAdvertisingReport(event) = try HCIEvent(bytes: hex) else {
            Issue.record("not an advertising report")
            return
        }
        #expect(event.reports.count == 2)
        #expect(event.reports[0].address == BluetoothAddress(0x01_02_03_04_05_06))
        #expect(Array(event.reports[0].data) == [0x02, 0x01, 0x06])
        #expect(event.reports[0].rssi == -40)
        #expect(event.reports[1].eventType == .scanResponse)
        #expect(event.reports[1].data.isEmpty)
        #expect(event.reports[1].rssi == 127)
        #expect(event.packet.bytes == hex)
    }

    @Test func leExtendedAdvertisingReport() throws {
        // > HCI Event: LE Meta Event (0x3e) plen 29 — LE Extended Advertising Report (0x0d), Num reports: 1
        //   Event type: 0x0010 (Use legacy advertising PDUs: ADV_NONCONN_IND), Address type: Random (0x01),
        //   Address: C0:11:22:33:44:55, Primary PHY: LE 1M, Secondary PHY: No packets, SID: no ADI field (0xff),
        //   TX power: 127 dBm (not available), RSSI: -60 dBm (0xc4), Periodic advertising interval: 0.00 msec (0x0000),
        //   Direct address type: Public (0x00), Direct address: 00:00:00:00:00:00, Data length: 0x03, 02 01 06
        let hex = bytes("3E 1D 0D 01 10 00 01 55 44 33 22 11 C0 01 00 FF 7F C4 00 00 00 00 00 00 00 00 00 03 02 01 06")
        let expected = LEExtendedAdvertisingReportEvent(reports: [
            .init(eventType: .legacyPDU, addressType: .random, address: staticAddress, primaryPHY: .le1M, secondaryPHY: .none,
                  sid: 0xFF, txPower: 127, rssi: -60, data: [0x02, 0x01, 0x06]),
        ])
        #expect(try HCIEvent(bytes: hex) == .leExtendedAdvertisingReport(expected))
        #expect(expected.packet.bytes == hex)
        // Walked in place, the same report (one layout, two ways to read it).
        var inPlace: [LEExtendedAdvertisingReportEvent.Report] = []
        #expect(try LEExtendedAdvertisingReportEvent.forEachReport(inEventBytes: hex[...]) { inPlace.append($0.withData(Array.init)) })
        #expect(inPlace == expected.reports)
        #expect(expected.reports[0].txPower == LEReportValues.txPowerNotAvailable)
        #expect(expected.reports[0].measuredRSSI == -60)
        // Another event is not walked.
        #expect(try !LEExtendedAdvertisingReportEvent.forEachReport(inEventBytes: bytes("0E 04 01 06 20 00")[...]) { _ in Issue.record("called") })
    }

    @Test func extendedReportDataStatus() {
        // Bits 5–6 = 01: incomplete, more to come; bits 0 and 1: connectable and scannable.
        let type = LEExtendedAdvertisingReportEvent.EventType(rawValue: 0x0023)
        #expect(type.dataStatus == 1)
        #expect(type.contains([.connectable, .scannable]))
        #expect(!type.contains(.legacyPDU))
    }

    @Test func leAdvertisingSetTerminated() throws {
        // > HCI Event: LE Meta Event (0x3e) plen 6 — LE Advertising Set Terminated (0x12)
        //   Status: Advertising Timeout (0x3c), Handle: 1, Connection handle: 0, Number of completed extended advertising events: 5
        let hex = bytes("3E 06 12 3C 01 00 00 05")
        let expected = LEAdvertisingSetTerminatedEvent(status: .advertisingTimeout, handle: 1, connectionHandle: 0, completedEvents: 5)
        #expect(try HCIEvent(bytes: hex) == .leAdvertisingSetTerminated(expected))
        #expect(expected.packet.bytes == hex)
    }

    @Test func unknownEventsAndSubeventsStayRaw() throws {
        // > HCI Event: Disconnect Complete (0x05) plen 4 — not modelled here, kept as received.
        let disconnect = bytes("05 04 00 40 00 16")
        #expect(try HCIEvent(bytes: disconnect) == .unknown(HCIEventPacket(code: 0x05, parameters: bytes("00 40 00 16"))))
        #expect(try HCIEvent(bytes: disconnect).packet.bytes == disconnect)
        // > HCI Event: LE Meta Event (0x3e) plen 2 — subevent 0x7F (future)
        let future = bytes("3E 02 7F 01")
        #expect(try HCIEvent(bytes: future) == .unknown(HCIEventPacket(code: 0x3E, parameters: [0x7F, 0x01])))
        // Vendor event 0xFF.
        #expect(try HCIEvent(bytes: bytes("FF 00")) == .unknown(HCIEventPacket(code: 0xFF, parameters: [])))
    }

    @Test func malformedKnownEventsAreTypedErrors() {
        // Command Complete cut inside Command_Opcode.
        #expect(throws: HCIDecodingError.truncated(field: "Command_Opcode", needed: 2, available: 1)) {
            try HCIEvent(bytes: bytes("0E 02 01 03"))
        }
        // Advertising report data longer than 31.
        #expect(throws: HCIDecodingError.invalidValue(field: "Data_Length", value: 32, allowed: "0…31")) {
            try HCIEvent(bytes: bytes("3E 0B 02 01 00 00 00 00 00 00 00 00 20"))
        }
        // Parameter length byte disagrees with the bytes present.
        #expect(throws: HCIDecodingError.lengthMismatch(declared: 4, actual: 3)) { try HCIEvent(bytes: bytes("0F 04 00 01 06")) }
        // Asking for the wrong event type.
        #expect(throws: HCIDecodingError.unexpectedEvent(expected: "event 0x0F", actualCode: 0x10)) {
            try HCICommandStatusEvent(packet: HCIEventPacket(code: 0x10, parameters: [0]))
        }
    }
}

@Suite("Advertising reports without building the event")
struct ReportVisitorTests {
    @Test func visitsEveryReportInOrder() throws {
        let packet = bytes("3E 19 02 02  00 00 06 05 04 03 02 01 03 02 01 06 D8  04 01 55 44 33 22 11 C0 00 7F")
        var seen: [LEAdvertisingReportEvent.Report] = []
        #expect(try LEAdvertisingReportEvent.forEachReport(inEventBytes: packet[...]) { seen.append($0) })
        guard case let .leAdvertisingReport(event) = try HCIEvent(bytes: packet) else {
            Issue.record("not an advertising report")
            return
        }
        #expect(seen == event.reports)
    }

    @Test func otherEventsAreSkippedAndBadOnesThrow() throws {
        var calls = 0
        #expect(try !LEAdvertisingReportEvent.forEachReport(inEventBytes: bytes("0E 04 01 03 0C 00")[...]) { _ in calls += 1 })
        #expect(try !LEAdvertisingReportEvent.forEachReport(inEventBytes: bytes("3E 06 12 3C 01 00 00 05")[...]) { _ in calls += 1 })
        #expect(calls == 0)
        #expect(throws: HCIDecodingError.truncated(field: "RSSI", needed: 1, available: 0)) {
            try LEAdvertisingReportEvent.forEachReport(inEventBytes: bytes("3E 0B 02 01 00 00 00 00 00 00 00 00 00")[...]) { _ in }
        }
    }
}
