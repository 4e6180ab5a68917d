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
                let hci: HCIController = harness.connection.hci!
                let probed = try await ControllerProbe.probe(hci, reset: true)
                #expect(probed.advertisingSets == 2)
                // Plan as if the controller had three sets (what a wrong assumption would do).
                let assumed = ControllerCapabilities.assumedExtended(adapter: AdapterName(hci.adapterName), sets: 3)
                #expect(FleetPlanner(maximumSets: 3).plan(profiles, on: [assumed]).adapters.first?.advertisers.count == 3)
                let fleet = harness.fleet(FleetPlanner(maximumSets: 3), capabilities: [assumed])
                try await fleet.start(profiles)
                let outcome = await fleet.outcome()
                let text = try #require(outcome.failure, "the third set was accepted").description
                #expect(text.contains("LE Set Extended Advertising Parameters (\(LESetExtendedAdvertisingParameters.opcode)) failed"), "\(text)")
                #expect(text.contains("Memory Capacity Exceeded (0x07)"), "\(text)")
                #expect(text.contains("the controller has no room for another advertising set"), "\(text)")
                #expect(text.contains(hci.adapterName), "\(text)")
                // The failure ended the run with a teardown that worked: nothing may be on air.
                #expect(outcome.teardowns.map(\.teardown) == [.clean])
                // On the wire: handles 0 and 1 accepted, handle 2 refused with 0x07 (the harness logs
                // a command just after answering it).
                _ = await link.waitFor(timeout: .seconds(3)) { $0.commands(opcode: 0x2036).count >= 3 }
                let parameters = link.commands(opcode: 0x2036)
                #expect(parameters.map { $0.parameters.first } == [0, 1, 2])
                #expect(parameters.map(\.status) == [0, 0, 0x07])
                // The fleet stopped what it had started: nothing remains.
                #expect(try await link.requestSets().isClean)
            }
        }

        /// Firmware that lists LE Extended Advertising and fails it (Intel AX211 202-5.26, #36):
        /// the controller, ours, is reset and the beacons go on air through legacy advertising;
        /// the plan says why. Without the trial the run ended on the refused command.
        @Test("extended advertising listed but refused by the firmware: reset, legacy, said in the plan, on air")
        func extendedAdvertisingRefusedByTheFirmware() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml").prefix(2).map { $0 }
            try await withBumble(["--quirks", "unknown:le-set-extended-advertising-data"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let plan = try await fleet.start(profiles)
                let adapter = try #require(plan.adapters.first)
                #expect(adapter.capabilities.advertisingSets == 0 && !adapter.capabilities.hasExtendedAdvertising)
                let reason = adapter.capabilities.backendReason?.description ?? ""
                #expect(reason.contains("LE Set Extended Advertising Data") && reason.contains("Unknown HCI Command") && reason.contains("legacy"), "\(reason)")
                // An independent look: the harness's legacy advertiser is on air, no set exists.
                #expect(await link.waitFor(timeout: .seconds(10)) { $0.setsLines.last.map { $0.legacyEnabled && $0.existing.isEmpty } == true },
                        "\(link.setsLines)")
                // On the wire: the refused data command, then a reset before any legacy command.
                let commands = link.commands()
                let refused = commands.firstIndex { $0.opcode == LESetExtendedAdvertisingData.opcode.rawValue && $0.status == 0x01 }
                let reset = commands.lastIndex { $0.opcode == HCIReset.opcode.rawValue }
                let legacy = commands.firstIndex { $0.opcode == LESetAdvertisingParameters.opcode.rawValue }
                #expect(refused != nil && reset != nil && legacy != nil, "\(commands)")
                if let refused, let reset, let legacy { #expect(refused < reset && reset < legacy, "\(commands)") }
                #expect(await fleet.stop().isClean)
                #expect(try await link.requestSets().isClean)
            }
        }

        /// A CSR8510 clone (#36, the catalogue's csr8510-clone on Bumble, `--model`): it claims
        /// Bluetooth 5.0 but keeps 4.x's 100 ms floor. The probe recognises it from what it
        /// reports, so two 20 ms beacons taking turns go on air at 100 ms; planned from the claimed
        /// version alone they were sent at 20 ms and refused (Invalid HCI Command Parameters).
        @Test("a CSR8510 clone claiming 5.0 is recognised and planned at its real 100 ms floor, on air")
        func aCloneClaimingFiveIsPlannedAtItsRealFloor() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml").prefix(2).map { profile in
                var fast = profile
                fast.intervalMilliseconds = 20
                return fast
            }
            try await withBumble(["--model", "csr8510-clone"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                let plan = try await fleet.start(profiles)
                let caps = try #require(plan.adapters.first?.capabilities)
                #expect(caps.model?.id == "csr8510-clone" && caps.hciVersion == .v5_0 && caps.lmpSubversion == 0x22BB)
                #expect(plan.warnings.contains { $0.description.contains("although it claims Bluetooth 5.0") }, "\(plan.warnings)")
                // An independent look: the harness's legacy advertiser is on air.
                #expect(await link.waitFor(timeout: .seconds(10)) { $0.setsLines.last?.legacyEnabled == true }, "\(link.setsLines)")
                let parameters = link.commands(opcode: LESetAdvertisingParameters.opcode.rawValue)
                #expect(!parameters.isEmpty && parameters.allSatisfy { $0.status == 0 && UInt16($0.parameters[0]) | UInt16($0.parameters[1]) << 8 >= 0x00A0 },
                        "\(parameters)")
                #expect(await fleet.stop().isClean)
                #expect(try await link.requestSets().isClean)
            }
        }

        /// Firmware that never answers LE Read Transmit Power (#36): the probe waits only
        /// ControllerProbe.optionalReadOutTimeout for it, leaves the power range unknown, and the
        /// controller, its one command credit given back, takes the run's commands after it.
        @Test("LE Read Transmit Power never answered: the probe goes on without it and the beacon goes on air")
        func transmitPowerNeverAnswered() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml").prefix(1).map { $0 }
            try await withBumble(["--quirks", "no-reply:le-read-transmit-power"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let hci: HCIController = harness.connection.hci!
                let probed = try await ControllerProbe.probe(hci, reset: true)
                #expect(probed.txPowerRange == nil)
                #expect(probed.advertisingSets == 16)
                let asked = link.commands(opcode: LEReadTransmitPower.opcode.rawValue)
                #expect(asked.count == 1 && asked.first?.status == nil, "sent once, never answered: \(asked)")
                let fleet = harness.fleet(capabilities: [probed])
                try await fleet.start(profiles)
                #expect(await link.waitFor(timeout: .seconds(10)) { $0.setsLines.last?.active.count == 1 }, "the beacon never went on air")
                #expect(await fleet.stop().isClean)
                #expect(try await link.requestSets().isClean)
            }
        }
    }
}
