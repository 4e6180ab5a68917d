// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import HCI
import HCITransport
import Synchronization

/// Carries out one adapter's ``AdvertisingProgram``: setup, the rotation slots on time, teardown.
public final class AdapterRunner: Sendable {
    public let hci: HCIController
    public let plan: AdapterPlan
    public let program: AdvertisingProgram
    let report: @Sendable (EmulatorEvent) -> Void
    private let onAirState = Mutex<[UInt8: AdvertisingSetConfiguration]>([:])

    /// What this runner last put on air, per advertiser handle (empty before start and after stop).
    public var onAir: [UInt8: AdvertisingSetConfiguration] { onAirState.withLock { $0 } }

    public init(hci: HCIController, plan: AdapterPlan, report: @escaping @Sendable (EmulatorEvent) -> Void = { _ in }) {
        self.hci = hci
        self.plan = plan
        self.program = AdvertisingProgram(plan: plan)
        self.report = report
    }

    var adapter: String { plan.capabilities.adapter }

    /// Checks every command of the program against the controller before anything is sent, so a
    /// bad value (say 50 ms on a 4.2 controller) leaves the controller untouched.
    public func validate() throws(HCIControllerError) {
        let info = plan.capabilities.hciInfo
        for command in program.allCommands {
            do throws(HCIValidationError) { try command.validate(for: info) } catch {
                throw .invalid(error, command: type(of: command).name)
            }
        }
    }

    /// Clean start, then slot 0 on air. With `previous` (what an earlier runner on the same
    /// controller left on air, e.g. before a SIGHUP reload) only the difference is sent.
    public func start(resumingFrom previous: [UInt8: AdvertisingSetConfiguration]? = nil) async throws(HCIControllerError) {
        try validate()
        guard let previous else {
            for c in program.preamble { try await send(c) }
            try await apply(program.setup, to: 0, fresh: true)
            return
        }
        let steps = AdvertisingProgram.steps(from: previous, to: program.states[0], extended: program.extended)
        try await apply(steps, to: 0, fresh: true, changedFrom: previous)
    }

    /// Runs the rotation until the task is cancelled (or `until` passes); returns at once when
    /// nothing rotates. Slots are scheduled from the start time, so lateness does not accumulate.
    public func rotate(until deadline: ContinuousClock.Instant? = nil, startingAt start: ContinuousClock.Instant = .now) async throws(HCIControllerError) {
        guard plan.rotates else { return }
        let count = program.slots.count
        var index = 1
        while !Task.isCancelled {
            let due = start + plan.slotDuration * index
            if let deadline, due >= deadline { return }
            do { try await Task.sleep(until: due, tolerance: .milliseconds(1), clock: .continuous) } catch { return }
            let lateness = ContinuousClock.now - due
            let slot = index % count
            try await apply(program.slots[slot], to: slot)
            report(.slot(adapter: adapter, index: index, commands: program.slots[slot].count, lateness: lateness))
            index += 1
        }
    }

    /// Advertising off and every set removed; short timeouts, since Ctrl-C is waiting.
    public func stop(timeout: Duration = .milliseconds(500)) async {
        for c in program.teardown {
            do throws(HCIControllerError) { try await send(c, timeout: timeout) } catch {
                report(.error(adapter: adapter, message: "while stopping: \(error)"))
            }
        }
        onAirState.withLock { $0 = [:] }
        report(.stopped(adapter: adapter))
    }

    /// Sends `commands`, then reports which beacons are now on air.
    func apply(_ commands: [any HCICommand], to slot: Int, fresh: Bool = false, changedFrom earlier: [UInt8: AdvertisingSetConfiguration]? = nil) async throws(HCIControllerError) {
        var selected: [UInt8: Int8] = [:]
        for c in commands {
            if let power = try await send(c) { selected[power.handle] = power.dBm }
        }
        onAirState.withLock { $0 = program.states[slot] }
        if let earlier {
            for (handle, old) in earlier.sorted(by: { $0.key < $1.key }) where program.states[slot][handle] != old {
                report(.offAir(beacon: old.beaconName, adapter: adapter, advertiser: handle))
            }
        }
        let previous = earlier ?? program.states[(slot + program.states.count - 1) % program.states.count]
        for (handle, config) in program.states[slot].sorted(by: { $0.key < $1.key }) where (fresh && earlier == nil) || previous[handle] != config {
            if !fresh, let old = previous[handle], old != config {
                report(.offAir(beacon: old.beaconName, adapter: adapter, advertiser: handle))
            }
            report(.onAir(beacon: config.beaconName, adapter: adapter, advertiser: handle, address: config.address, selectedTxPower: selected[handle]))
        }
    }

    /// Sends one command; returns the selected TX power when it set extended parameters.
    @discardableResult
    func send(_ command: any HCICommand, timeout: Duration? = nil) async throws(HCIControllerError) -> (handle: UInt8, dBm: Int8)? {
        try await sendTyped(command, timeout: timeout)
    }

    private func sendTyped<C: HCICommand>(_ command: C, timeout: Duration?) async throws(HCIControllerError) -> (handle: UInt8, dBm: Int8)? {
        let reply = try await hci.send(command, timeout: timeout)
        if let p = command as? LESetExtendedAdvertisingParameters, let r = reply as? LESetExtendedAdvertisingParameters.ReturnParameters {
            return (p.handle, r.selectedTxPower)
        }
        return nil
    }
}
