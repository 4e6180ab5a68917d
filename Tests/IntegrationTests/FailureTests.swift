// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import HCI
import HCITransport
import Testing

extension BumbleIntegration {
    /// A controller refusing a command: the error names the status and explains it.
    @Suite("Failure path")
    struct FailureTests {
        @Test("a third set on a 2-set controller: 0x07 Memory Capacity Exceeded, explained, and a clean controller after")
        func tooManySets() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml").prefix(3).map { $0 }
            try await withBumble(["--max-sets", "2"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let hci = harness.connection.hci
                let probed = try await ControllerProbe.probe(hci, reset: true)
                #expect(probed.advertisingSets == 2)
                // Plan as if the controller had three sets (what a wrong assumption would do).
                let assumed = ControllerCapabilities.assumedExtended(adapter: hci.adapterName, sets: 3)
                let plan = FleetPlanner(maximumSets: 3).plan(profiles, on: [assumed])
                #expect(plan.adapters.first?.advertisers.count == 3)
                let runner = AdapterRunner(hci: hci, plan: try #require(plan.adapters.first), report: harness.recorder.report)
                do throws(HCIControllerError) {
                    try await Fleet.run([runner], duration: .seconds(1))
                    Issue.record("the third set was accepted")
                } catch {
                    #expect(error.status == .memoryCapacityExceeded)
                    let text = error.description
                    #expect(text.contains("LE Set Extended Advertising Parameters (\(LESetExtendedAdvertisingParameters.opcode)) failed"), "\(text)")
                    #expect(text.contains("Memory Capacity Exceeded (0x07)"), "\(text)")
                    #expect(text.contains("the controller has no room for another advertising set"), "\(text)")
                    #expect(text.contains(hci.adapterName), "\(text)")
                }
                // On the wire: handles 0 and 1 accepted, handle 2 refused with 0x07 (the harness logs
                // a command just after answering it).
                _ = await link.waitFor(timeout: .seconds(3)) { $0.commands(opcode: 0x2036).count >= 3 }
                let parameters = link.commands(opcode: 0x2036)
                #expect(parameters.map { $0.parameters.first } == [0, 1, 2])
                #expect(parameters.map(\.status) == [0, 0, 0x07])
                // Fleet.run stopped what it had started: nothing remains.
                #expect(try await link.requestSets().isClean)
            }
        }
    }
}
