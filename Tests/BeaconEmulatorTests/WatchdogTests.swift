// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import BeaconProfiles
import HCI
import HCITransport
import Mgmt
import TestControllers
import Testing
import VirtualController

/// The watchdog: advertising that something outside beacon takes off the air (the kernel's
/// commands on a shared raw socket, bluetoothd removing every instance, the adapter going away
/// and back) is put back and reported as ``EmulatorEvent/recovered(adapter:reason:beacons:after:)``.
@Suite struct WatchdogTests {
    /// The first recovery the fleet reports; nil if the fleet ends first or none comes within
    /// 20 s (a hang detector, not a timing bound: the restore follows the loss at once).
    func firstRecovery(_ fleet: RunningFleet) async -> (reason: String, beacons: [BeaconName])? {
        await withTaskGroup(of: (String, [BeaconName])?.self) { group in
            group.addTask {
                for await event in fleet.events {
                    if case let .recovered(_, reason, beacons, _, _) = event { return (reason.description, beacons) }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    // MARK: Management API

    let theirs: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18]

    func mgmtFleet(_ kernel: ScriptedKernel) -> (RunningFleet, AdapterConnection) {
        let connection = AdapterConnection(spec: .management(id: 0), management: MgmtController(transport: kernel, index: 0))
        return (RunningFleet(connections: [connection]), connection)
    }

    /// The instances beacon gave parameters to, from the `since`-th command on (after the start:
    /// the probe's capacity measurement adds and removes instances too).
    func added(_ kernel: ScriptedKernel, since: Int = 0) -> [UInt8] {
        kernel.received.dropFirst(since).filter { $0.header.code == AddExtendedAdvertisingParameters.opcode.rawValue }
            .compactMap { try? AddExtendedAdvertisingParameters(parameters: $0.parameters).instance }
    }

    @Test func instancesRemovedByABluetoothdStartAreAddedAgain() async throws {
        let kernel = ScriptedKernel(maxInstances: 3, otherInstances: [1: theirs])
        let (fleet, connection) = mgmtFleet(kernel)
        defer { connection.close() }
        let beacon = beacons(1, txPower: -4)[0]
        try await fleet.start([beacon])
        let started = kernel.received.count
        #expect(kernel.instances.keys.sorted() == [1, 2])
        kernel.removeEveryInstanceAsBluetoothdStarts()
        let recovery = try #require(await firstRecovery(fleet), "no recovery reported")
        #expect(recovery.beacons == ["b0"])
        #expect(recovery.reason.contains("removed instance 2"), "\(recovery.reason)")
        #expect(kernel.instances == [2: Array(beacon.beacon.advertisingData(flags: beacon.flags))], "ours back on its instance, theirs not re-added by us")
        #expect(kernel.parameters[2]?.txPower == -4)
        #expect(added(kernel, since: started) == [2], "the one instance of ours, added again")
        #expect(await fleet.stop().isClean)
        #expect(kernel.instances.isEmpty)
    }

    @Test func anotherProgramsInstanceRemovedIsNoneOfOurBusiness() async throws {
        let kernel = ScriptedKernel(maxInstances: 3, otherInstances: [1: theirs])
        let (fleet, connection) = mgmtFleet(kernel)
        defer { connection.close() }
        try await fleet.start(beacons(1))
        let started = kernel.received.count
        // Their instance goes (no loss of ours), then ours does: one recovery, for ours only.
        kernel.inject(.advertisingRemoved(instance: 1, index: 0))
        kernel.removeEveryInstanceAsBluetoothdStarts()
        let recovery = try #require(await firstRecovery(fleet))
        #expect(!recovery.reason.contains("instance 1 "), "\(recovery.reason)")
        #expect(added(kernel, since: started) == [2])
        #expect(await fleet.stop().isClean)
    }

    @Test func aPowerCycleThatKeptTheInstancesSendsNothing() async throws {
        let kernel = ScriptedKernel(maxInstances: 3)
        let (fleet, connection) = mgmtFleet(kernel)
        defer { connection.close() }
        try await fleet.start(beacons(1))
        let started = kernel.received.count
        // New Settings, powered (bit 0): the kernel kept the instance; then the adapter goes
        // away and back, which loses it: exactly one re-add, after the second.
        kernel.inject(.other(code: 0x0006, index: 0, parameters: [0x01, 0, 0, 0]))
        kernel.removeAndAddIndex()
        let recovery = try #require(await firstRecovery(fleet))
        // The restore answers the adapter's going away and coming back, not the power event. Whether
        // the driver takes both index events in one restore, or restores between them (the backend
        // already knowing the adapter is back), is up to the scheduler: the air sees the same.
        #expect(recovery.reason.contains("(Index Removed)") || recovery.reason.contains("(Index Added)"), "\(recovery.reason)")
        #expect(!recovery.reason.contains("New Settings"), "\(recovery.reason)")
        #expect(added(kernel, since: started) == [1])
        #expect(kernel.instances.keys.sorted() == [1])
        #expect(await fleet.stop().isClean)
    }

    // Disabled: which of the injected events the driver's restore sees first (the removal, or
    // the power-off and power-on after it) depends on scheduling, so the verdict could depend on
    // luck. The behaviour it covers is checked for real by the kernel test's
    // bluetoothd_restart_recovered (after_adapter_back_ms, bound 2 s). To bring it back, the
    // test needs a hook that says the backend has seen the power-off before it powers on.
    @Test(.disabled("scheduling-dependent ordering of injected events; covered by the kernel test's bluetoothd_restart_recovered"))
    func anInstanceRemovedAtPowerOffIsAddedAtThePowerOnAndTimedFromIt() async throws {
        // bluetoothd exiting: the kernel removes the instance as it powers the adapter off
        // (Advertising Removed, then New Settings without Powered), and refuses new instances
        // until bluetoothd, started again, powers it on. Nothing is re-added while it is off;
        // the power-on's New Settings puts the beacon back, and the recovery says how long that
        // took from the power-on as well as from the loss.
        let kernel = ScriptedKernel(maxInstances: 3)
        let (fleet, connection) = mgmtFleet(kernel)
        defer { connection.close() }
        try await fleet.start(beacons(1))
        let started = kernel.received.count
        kernel.override(AddExtendedAdvertisingParameters.opcode, with: .status(.rejected))
        kernel.removeEveryInstanceAsBluetoothdStarts()
        kernel.inject(.other(code: 0x0006, index: 0, parameters: [0x00, 0, 0, 0]))
        var events = fleet.events.makeAsyncIterator()
        // The off state is in effect once the backend has seen the New Settings; then power on.
        kernel.inject(.other(code: 0x0006, index: 0, parameters: [0x01, 0, 0, 0]))
        kernel.clearOverride(AddExtendedAdvertisingParameters.opcode)
        var recovered: (reason: String, back: Duration?)?
        while let event = await events.next() {
            if case let .recovered(_, reason, _, _, back) = event { recovered = (reason.description, back); break }
        }
        let recovery = try #require(recovered, "no recovery reported")
        #expect(recovery.reason.contains("powered on again"), "\(recovery.reason)")
        #expect(recovery.back != nil, "timed from the power-on too")
        #expect(kernel.instances.keys.sorted() == [1])
        #expect(added(kernel, since: started).last == 1)
        #expect(await fleet.stop().isClean)
    }

    @Test func anInstanceAnotherProgramTakesOverIsLeftToItAndTheBeaconMoves() async throws {
        let kernel = ScriptedKernel(maxInstances: 3)
        let (fleet, connection) = mgmtFleet(kernel)
        defer { connection.close() }
        let beacon = beacons(1)[0]
        try await fleet.start([beacon])
        #expect(kernel.instances.keys.sorted() == [1])
        let started = kernel.received.count
        // bluetoothd (which numbers instances itself) puts its own advertisement on instance 1.
        kernel.anotherProgramAdds(instance: 1, data: theirs)
        let recovery = try #require(await firstRecovery(fleet))
        #expect(recovery.reason.contains("another program took instance 1"), "\(recovery.reason)")
        #expect(added(kernel, since: started) == [2], "moved to the first free instance")
        #expect(kernel.instances == [1: theirs, 2: Array(beacon.beacon.advertisingData(flags: beacon.flags))])
        #expect(await fleet.stop().isClean)
        #expect(kernel.instances == [1: theirs], "teardown removes ours only, never the instance taken over")
    }

    // MARK: Raw socket

    @Test(arguments: [true, false])
    func setsTheKernelClearsAreRestored(extended: Bool) async throws {
        let controller = VirtualController(configuration: try VirtualController.Configuration(options: extended ? ["sets": "4"] : ["legacy": "yes"]))
        let transport = SharedKernelTransport(controller: controller)
        var connection = AdapterConnection(spec: .virtual(options: [:]), hci: HCIController(transport: transport))
        connection.sharedWithKernel = true
        defer { connection.close() }
        let fleet = RunningFleet(connections: [connection])
        try await fleet.start(beacons(1))
        let before = controller.activeAdvertisers()
        #expect(before.count == 1)
        // What the kernel sends when the adapter is powered off.
        if extended {
            transport.kernelSends(LESetExtendedAdvertisingEnable.disableAll.h4Bytes)
            transport.kernelSends(LEClearAdvertisingSets().h4Bytes)
        } else {
            transport.kernelSends(LESetAdvertisingEnable(false).h4Bytes)
        }
        let recovery = try #require(await firstRecovery(fleet), "no recovery reported")
        #expect(recovery.beacons == ["b0"])
        #expect(recovery.reason.contains(extended ? "LE Clear Advertising Sets" : "LE Set Advertising Enable"), "\(recovery.reason)")
        #expect(controller.activeAdvertisers() == before)
        #expect(await fleet.stop().isClean)
        #expect(controller.activeAdvertisers().isEmpty)
    }

    @Test func aResetByTheKernelIsRestoredToo() async throws {
        let controller = VirtualController(configuration: try VirtualController.Configuration(options: ["sets": "4"]))
        let transport = SharedKernelTransport(controller: controller)
        var connection = AdapterConnection(spec: .virtual(options: [:]), hci: HCIController(transport: transport))
        connection.sharedWithKernel = true
        defer { connection.close() }
        let fleet = RunningFleet(connections: [connection])
        try await fleet.start(beacons(2))
        transport.kernelSends(HCIReset().h4Bytes)
        let recovery = try #require(await firstRecovery(fleet))
        #expect(recovery.beacons == ["b0", "b1"])
        #expect(controller.activeAdvertisers().count == 2)
        #expect(await fleet.stop().isClean)
    }

    @Test func withoutTheKernelNextToItTheWatchdogStaysOut() async throws {
        // A controller of our own (the user channel, TCP, the virtual one): a foreign reply is
        // not the kernel's doing, and nothing is restored.
        let controller = VirtualController(configuration: try VirtualController.Configuration(options: ["sets": "4"]))
        let transport = SharedKernelTransport(controller: controller)
        let connection = AdapterConnection(spec: .virtual(options: [:]), hci: HCIController(transport: transport))
        defer { connection.close() }
        #expect(!connection.sharedWithKernel)
        for spec in [AdapterSpec.raw(id: 0), .kernel(id: 0)] {
            let shared = AdapterConnection(spec: spec, hci: HCIController(transport: SharedKernelTransport()))
            #expect(shared.sharedWithKernel, "\(spec)")
            shared.close()
        }
    }

    @Test func aTurnWhileTheAdapterIsDownWaitsForTheRestore() async throws {
        // Two beacons take turns on the one legacy advertiser; the adapter goes down (a turn's
        // write is refused with ENETDOWN), the kernel resets the controller at power-on: the run
        // goes on and the current turn is restored.
        let controller = VirtualController(configuration: try VirtualController.Configuration(options: ["legacy": "yes"]))
        let transport = SharedKernelTransport(controller: controller)
        var connection = AdapterConnection(spec: .virtual(options: [:]), hci: HCIController(transport: transport))
        connection.sharedWithKernel = true
        defer { connection.close() }
        let fleet = RunningFleet(connections: [connection])
        try await fleet.start(beacons(2))
        transport.setDown(true)
        var refusals = transport.refusals.makeAsyncIterator()
        _ = await refusals.next()
        transport.kernelSends(HCIReset().h4Bytes)
        transport.setDown(false)
        let recovery = try #require(await firstRecovery(fleet), "no recovery reported")
        #expect(recovery.reason.contains("HCI Reset"), "\(recovery.reason)")
        #expect(recovery.beacons.count == 1)
        // The legacy advertiser, or none for the moment the next turn's commands take (its disable
        // comes first): the rotation goes on after the restore.
        #expect(controller.activeAdvertisers().allSatisfy { $0 == .legacy })
        let outcome = await fleet.stop()
        #expect(outcome.failure == nil, "\(outcome.failure ?? "")")
        #expect(outcome.isClean)
    }
}
