// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import HCI
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
        let removedBefore = sent(RemoveAdvertising.self, by: kernel).count
        let outcome = await fleet.stop()
        #expect(outcome.isClean)
        #expect(kernel.instances == [1: theirs], "teardown removes only beacon's instance")
        #expect(sent(RemoveAdvertising.self, by: kernel).dropFirst(removedBefore).map(\.instance) == [2])
        #expect(!sent(RemoveAdvertising.self, by: kernel).contains { $0.instance == 1 }, "never the other program's, not even in the probe")
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

    /// The power the kernel says it selected is reported on air; on a legacy-only controller
    /// (a Raspberry Pi's) it answers TX power 127, which is "not known", never "127 dBm" (#36).
    @Test func aSelectedPowerOf127IsNotKnownNotAPower() async throws {
        for learns in [true, false] {
            let kernel = ScriptedKernel(maxInstances: 3, learnsSelectedPower: learns)
            let (fleet, connection) = fleet(on: kernel)
            defer { connection.close() }
            try await fleet.start(beacons(1, interval: 100, txPower: -4))
            var power: Int8?? = .none
            for await event in fleet.events {
                if case .onAir(_, _, _, _, let selected) = event { power = .some(selected); break }
            }
            #expect(power == .some(learns ? -4 : nil), "kernel learns the power: \(learns)")
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
        #expect(outcome.failure?.description.contains("Add Extended Advertising Data (0x0055) failed: Invalid Parameters (0x0D)") == true, "\(outcome.failure?.description ?? "no failure")")
        // The parameters were taken, so the kernel held instance 1: teardown removed it.
        #expect(kernel.instances.isEmpty)
    }
}

@Suite struct MgmtProbeVersionTests {
    @Test(arguments: [(HCIVersion.v5_0, 20.0), (.v4_2, 100.0)])
    func theControllersBluetoothVersionSetsTheIntervalFloor(version: HCIVersion, floor: Double) async throws {
        let kernel = ScriptedKernel(maxInstances: 3, bluetoothVersion: version)
        let mgmt = MgmtController(transport: kernel, index: 0)
        defer { mgmt.close() }
        let caps = try await ControllerProbe.probe(management: mgmt)
        #expect(caps.hciVersion == version)
        #expect(caps.minimumNonConnectableInterval.milliseconds == floor)
        #expect(caps.manufacturer == 0x05F1)
    }

    @Test func aKernelWithoutReadControllerInformationGetsTheStrictFloor() async throws {
        let kernel = ScriptedKernel(maxInstances: 3, bluetoothVersion: nil)
        let mgmt = MgmtController(transport: kernel, index: 0)
        defer { mgmt.close() }
        let caps = try await ControllerProbe.probe(management: mgmt)
        #expect(caps.minimumNonConnectableInterval.milliseconds == 100)
    }
}

@Suite struct MgmtCapacityTests {
    func fleet(on kernel: ScriptedKernel) -> (RunningFleet, AdapterConnection) {
        let connection = AdapterConnection(spec: .management(id: 0), management: MgmtController(transport: kernel, index: 0))
        return (RunningFleet(connections: [connection]), connection)
    }

    @Test func aControllerWithFewerSetsThanInstancesIsMeasuredBeforeTheRun() async throws {
        // Max_Instances 3, but the controller holds 2 sets (the kernel keeps one for itself).
        let kernel = ScriptedKernel(maxInstances: 3, controllerSets: 2)
        let (fleet, connection) = fleet(on: kernel)
        defer { connection.close() }
        let plan = try await fleet.plan(beacons(4))
        let caps = try #require(plan.adapters.first?.capabilities)
        #expect(caps.advertisingSets == 2)
        #expect(caps.managementAPI?.usableInstances == 2)
        #expect(kernel.instances.isEmpty, "the measurement leaves nothing behind")
        let measured = kernel.received.count
        try await fleet.start(beacons(4))
        let refused = kernel.received.dropFirst(measured).contains { $0.header.code == AddExtendedAdvertisingParameters.opcode.rawValue && (try? AddExtendedAdvertisingParameters(parameters: $0.parameters).instance) == 3 }
        #expect(!refused, "the run never asks for the third instance")
        #expect(await fleet.stop().isClean)
        #expect(kernel.instances.isEmpty)
    }

    @Test func withoutHardwareOffloadOneInstanceIsUsed() async throws {
        // The kernel would rotate its instances in software, 2 s each: beacon rotates on one.
        let kernel = ScriptedKernel(maxInstances: 5, controllerRunsInstances: false)
        let (fleet, connection) = fleet(on: kernel)
        defer { connection.close() }
        let plan = try await fleet.plan(beacons(3))
        #expect(plan.adapters.first?.capabilities.advertisingSets == 1)
        #expect(plan.adapters.first?.rotates == true)
        #expect(!kernel.received.contains { $0.header.code == AddExtendedAdvertisingParameters.opcode.rawValue }, "nothing to measure")
    }

    @Test func aRefusalOtherThanNoResourcesSaysNothingAboutCapacity() async throws {
        // LE switched off (as on an adapter only brought up with HCIDEVUP): the kernel rejects
        // every instance. That is no capacity of 0: the count stays the kernel's, and the run
        // will say what is wrong.
        let kernel = ScriptedKernel(maxInstances: 3)
        kernel.override(AddExtendedAdvertisingParameters.opcode, with: .status(.rejected))
        let (fleet, connection) = fleet(on: kernel)
        defer { connection.close() }
        let plan = try await fleet.plan(beacons(2))
        #expect(plan.adapters.first?.capabilities.advertisingSets == 3)
        #expect(plan.adapters.first?.capabilities.managementAPI?.usableInstances == nil)
    }
}
