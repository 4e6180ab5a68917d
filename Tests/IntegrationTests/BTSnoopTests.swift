// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import Foundation
import HCI
import HCITransport
import Testing
import TestSupport

extension BumbleIntegration {
    /// Our btsnoop capture of a real session must be something Wireshark reads without complaint.
    @Suite("btsnoop and tshark")
    struct BTSnoopTests {
        @Test("a probe and a short extended run: tshark decodes every packet and names the commands")
        func tsharkDecodes() async throws {
            let tshark = try #require(Executables.onPath("tshark"), "tshark is not installed: apt-get install tshark (it checks our btsnoop files)")
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-integ-\(UUID().uuidString).btsnoop").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let profiles = try BeaconExpectations.shipped("room-2m.yaml")
            let commandCount: Int = try await withBumble { link in
                let harness = try FleetHarness(link, btsnoop: try BTSnoopWriter(path: path))
                defer { harness.close() }
                let fleet = harness.fleet()
                try await fleet.advertise(profiles, for: .milliseconds(300))
                // The harness logs a command after answering it: wait for the teardown's LE Clear
                // Advertising Sets (the preamble sent the first one).
                _ = await link.waitFor(timeout: .seconds(3)) { $0.commands(opcode: 0x203D).count == 2 }
                let all = link.commands()
                #expect(all.allSatisfy { $0.status == 0 })
                return all.count
            }
            let result = try Program.run(tshark, ["-r", path, "-V"])
            #expect(result.status == 0, "\(result.stderr)")
            let text = result.stdout
            #expect(!text.contains("Malformed Packet"), "tshark found a malformed packet")
            #expect(!text.contains("Expert Info (Error"), "tshark reported an error")
            // One frame per command and one Command Complete per command.
            let frames = text.components(separatedBy: "\n").filter { $0.hasPrefix("Frame ") }.count
            #expect(frames == 2 * commandCount, "frames \(frames) for \(commandCount) commands")
            for name in ["Reset", "Read Local Version Information", "LE Read Local Supported Features",
                         "LE Read Number of Supported Advertising Sets", "LE Clear Advertising Sets",
                         "LE Set Extended Advertising Parameters", "LE Set Advertising Set Random Address",
                         "LE Set Extended Advertising Data", "LE Set Extended Advertising Enable", "Command Complete"] {
                #expect(text.contains(name), "tshark does not name \(name)")
            }
            // tshark's own reading of what we sent: the iBeacon behind Apple's company ID.
            #expect(text.contains("Apple"), "the manufacturer data is Apple's")
        }
    }
}
