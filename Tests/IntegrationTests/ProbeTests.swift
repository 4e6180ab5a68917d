// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import HCI
import Testing

extension BumbleIntegration {
    /// What `beacon doctor` learns about a controller, asked over TCP of Bumble configured three ways.
    @Suite("Probe over TCP")
    struct ProbeTests {
        struct Case: Sendable, CustomTestStringConvertible {
            var arguments: [String]
            var version: HCIVersion
            var extended: Bool
            var sets: Int
            var maximumDataLength: Int
            var testDescription: String { arguments.isEmpty ? "defaults" : arguments.joined(separator: " ") }
        }

        static let cases: [Case] = [
            // Bumble answers LE Read Maximum Advertising Data Length with 0x0672 (1650 bytes).
            Case(arguments: ["--max-sets", "6"], version: .v5_0, extended: true, sets: 6, maximumDataLength: 0x0672),
            Case(arguments: ["--no-extended"], version: .v5_0, extended: false, sets: 0, maximumDataLength: 31),
            Case(arguments: ["--hci-version", "4.2"], version: .v4_2, extended: false, sets: 0, maximumDataLength: 31),
        ]

        @Test("ControllerProbe reports version, extended advertising, sets and data length", arguments: cases)
        func probe(_ c: Case) async throws {
            try await withBumble(c.arguments) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let caps = try await ControllerProbe.probe(harness.connection.hci!, reset: true)
                #expect(caps.hciVersion == c.version)
                #expect(caps.leFeatures.contains(.leExtendedAdvertising) == c.extended, "LE feature bit 12")
                #expect(caps.hasExtendedAdvertising == c.extended)
                #expect(caps.advertisingSets == c.sets)
                #expect(caps.maximumDataLength == c.maximumDataLength)
                #expect(caps.address == BluetoothAddress(link.ready.address), "BD_ADDR \(link.ready.address)")
                #expect(caps.adapter == AdapterName("tcp:127.0.0.1:\(link.port)"))
                // Probing must not commit the controller to legacy or extended advertising: reset,
                // version, LE features, BD_ADDR, three more version reads (the command time's
                // median), plus the three extended read-outs when bit 12 is set.
                let expectedCount = c.extended ? 10 : 7
                #expect(caps.commandTime.map { $0 > .zero && $0 < .seconds(1) } == true, "\(String(describing: caps.commandTime))")
                _ = await link.waitFor(timeout: .seconds(3)) { $0.commandCount >= expectedCount }
                #expect(link.commandCount == expectedCount)
                let sent = Set(link.commands().map(\.opcode))
                #expect(sent.isSubset(of: probeOpcodes), "probe sent \(sent.subtracting(probeOpcodes).map { String($0, radix: 16) })")
                #expect(sent.contains(0x203B) == c.extended, "LE Read Number of Supported Advertising Sets only when bit 12 is set")
                #expect(try await link.requestSets().isClean)
            }
        }
    }
}
