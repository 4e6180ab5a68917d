// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import HCITransport
import Mgmt
import TestControllers
import Testing

@Suite struct MgmtBackendTests {
    /// Another program's advertisement (Flags + a 16-bit UUID list), on the kernel before beacon starts.
    let theirs: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18]

    func fleet(on kernel: ScriptedKernel) -> (RunningFleet, AdapterConnection) {
        let connection = AdapterConnection(spec: .management(id: 0), management: MgmtController(transport: kernel, index: 0))
        return (RunningFleet(connections: [connection]), connection)
    }

    func sent<C: MgmtCommand>(_ type: C.Type, by kernel: ScriptedKernel) -> [C] {
        kernel.received.filter { $0.header.code == C.opcode.rawValue }.compactMap { try? C(parameters: $0.parameters) }
    }

    @Test func beaconTakesAFreeInstanceAndLeavesTheOtherProgramsAlone() async throws {
        let kernel = ScriptedKernel(maxInstances: 3, otherInstances: [1: theirs])
        let (fleet, connection) = fleet(on: kernel)
        defer { connection.close() }
        let beacon = beacons(1, interval: 100, txPower: -4)[0]
        let plan = try await fleet.start([beacon])
        #expect(plan.adapters.first?.capabilities.advertisingSets == 2, "3 instances, 1 taken: 2 free")
        // Instance 1 is the other program's: beacon's advertiser 0 goes to instance 2.
        let parameters = try #require(kernel.parameters[2])
        #expect(parameters.flags == [.useIntervals, .useTxPower])
        #expect(parameters.minInterval == 160 && parameters.maxInterval == 160)
        #expect(parameters.txPower == -4)
        #expect(kernel.instances[2] == Array(beacon.beacon.advertisingData(flags: beacon.flags)), "the exact bytes, our Flags structure included")
        #expect(kernel.instances[1] == theirs)
        let outcome = await fleet.stop()
        #expect(outcome.isClean)
        #expect(kernel.instances == [1: theirs], "teardown removes only beacon's instance")
        #expect(sent(RemoveAdvertising.self, by: kernel).map(\.instance) == [2])
    }

    @Test func kernelWithoutExtendedCommandsGetsAddAdvertising() async throws {
        let kernel = ScriptedKernel(maxInstances: 5, supportsExtendedCommands: false)
        let (fleet, connection) = fleet(on: kernel)
        defer { connection.close() }
        let beacon = beacons(1)[0]
        try await fleet.start([beacon])
        #expect(sent(AddExtendedAdvertisingParameters.self, by: kernel).isEmpty)
        #expect(sent(AddAdvertising.self, by: kernel).map(\.instance) == [1])
        #expect(kernel.instances[1] == Array(beacon.beacon.advertisingData(flags: beacon.flags)))
        #expect(await fleet.stop().isClean)
        #expect(kernel.instances.isEmpty)
    }

    /// A local name goes to the kernel as scan response data (it then advertises scannable),
    /// with Add Extended Advertising Data and with Add Advertising alike.
    @Test func aLocalNameIsTheInstancesScanResponse() async throws {
        for extended in [true, false] {
            let kernel = ScriptedKernel(maxInstances: 5, supportsExtendedCommands: extended)
            let (fleet, connection) = fleet(on: kernel)
            defer { connection.close() }
            var beacon = beacons(1)[0]
            beacon.localName = "Door"
            try await fleet.start([beacon])
            let response = extended ? sent(AddExtendedAdvertisingData.self, by: kernel).map(\.scanResponse)
                                    : sent(AddAdvertising.self, by: kernel).map(\.scanResponse)
            #expect(response == [[0x05, 0x09] + Array("Door".utf8)], "extended commands: \(extended)")
            #expect(await fleet.stop().isClean)
        }
    }

    @Test func moreBeaconsThanFreeInstancesRotateOnTheFreeOnesOnly() async throws {
        let kernel = ScriptedKernel(maxInstances: 3, otherInstances: [2: theirs])
        let (fleet, connection) = fleet(on: kernel)
        defer { connection.close() }
        try await fleet.start(beacons(4))
        let used = Set(sent(AddExtendedAdvertisingParameters.self, by: kernel).map(\.instance))
        #expect(used == [1, 3])
        #expect(await fleet.stop().isClean)
        #expect(kernel.instances == [2: theirs])
        #expect(!sent(RemoveAdvertising.self, by: kernel).contains { $0.removesAll }, "never instance 0 (every program's)")
    }

    @Test func aRefusalIsExplainedAndNothingOfOursIsLeft() async throws {
        let kernel = ScriptedKernel(maxInstances: 3)
        kernel.override(AddExtendedAdvertisingData.opcode, with: .status(.invalidParameters))
        let (fleet, connection) = fleet(on: kernel)
        defer { connection.close() }
        try await fleet.start(beacons(1))
        let outcome = await fleet.outcome()
        #expect(outcome.failure?.contains("Add Extended Advertising Data (0x0055) failed: Invalid Parameters (0x0D)") == true, "\(outcome.failure ?? "no failure")")
        // The parameters were taken, so the kernel held instance 1: teardown removed it.
        #expect(kernel.instances.isEmpty)
    }
}
