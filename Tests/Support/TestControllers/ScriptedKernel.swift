// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import HCI
import HCITransport
import Mgmt
import Synchronization

/// An in-memory stand-in for the kernel's management API on one adapter, for unit tests of
/// `MgmtController` and the management backend (the QEMU kernel test checks the real kernel).
///
/// It keeps the kernel's instance bookkeeping as doc/mgmt-api.txt describes it: instances
/// 1…maxInstances, Remove Advertising 0 removes all, Add Extended Advertising Data needs the
/// parameters first, and a program's own commands raise no Advertising Added/Removed on its
/// socket. `override` replaces the answer to a command (a status, or silence).
public final class ScriptedKernel: HCITransport, Sendable {
    public enum Answer: Sendable {
        case status(MgmtStatus)
        case silence
        /// The write itself fails with this error number (as the kernel's sendmsg can).
        case writeFails(Errno)
    }

    public let adapterName: String
    public let index: UInt16
    public let maxInstances: UInt8
    public let supportsExtendedCommands: Bool
    /// Read Controller Information's Bluetooth_Version (nil: the command is unknown).
    public let bluetoothVersion: HCIVersion?
    /// Whether the controller runs the instances (extended advertising: the hw-offload flag);
    /// without it the kernel would rotate them in software.
    public let controllerRunsInstances: Bool
    /// How many instances the controller holds at once (nil: Max_Instances): a kernel that keeps
    /// a set for itself answers No Resources for the last instance.
    public let controllerSets: Int?
    /// Whether the kernel learns the power the controller selected: not on a legacy-only
    /// controller (every Raspberry Pi's), where Add Extended Advertising Parameters answers TX
    /// power 127 (the kernel's HCI_TX_POWER_INVALID) whatever was asked.
    public let learnsSelectedPower: Bool
    private let state: Mutex<State>
    private let ready = NSCondition()

    struct State {
        var outbox: [[UInt8]] = []
        var received: [MgmtPacket] = []
        /// Instance → its advertising data (empty until Add Extended Advertising Data).
        var instances: [UInt8: [UInt8]] = [:]
        var parameters: [UInt8: AddExtendedAdvertisingParameters] = [:]
        var overrides: [UInt16: Answer] = [:]
        var closed = false
    }

    public init(index: UInt16 = 0, maxInstances: UInt8 = 3, supportsExtendedCommands: Bool = true, otherInstances: [UInt8: [UInt8]] = [:],
                bluetoothVersion: HCIVersion? = .v4_2, controllerRunsInstances: Bool = true, controllerSets: Int? = nil,
                learnsSelectedPower: Bool = true) {
        self.learnsSelectedPower = learnsSelectedPower
        self.bluetoothVersion = bluetoothVersion
        self.controllerRunsInstances = controllerRunsInstances
        self.controllerSets = controllerSets
        adapterName = "mgmt:hci\(index)"
        self.index = index
        self.maxInstances = maxInstances
        self.supportsExtendedCommands = supportsExtendedCommands
        state = Mutex(State(instances: otherInstances))
    }

    /// Every command received, in order.
    public var received: [MgmtPacket] { state.withLock { $0.received } }
    /// The instances now, with their data.
    public var instances: [UInt8: [UInt8]] { state.withLock { $0.instances } }
    /// The parameters last given per instance.
    public var parameters: [UInt8: AddExtendedAdvertisingParameters] { state.withLock { $0.parameters } }

    /// From now on, answer `opcode` this way.
    public func override(_ opcode: MgmtOpcode, with answer: Answer) {
        state.withLock { $0.overrides[opcode.rawValue] = answer }
    }

    /// Answers `opcode` as the kernel does again.
    public func clearOverride(_ opcode: MgmtOpcode) {
        state.withLock { $0.overrides[opcode.rawValue] = nil }
    }

    /// An event as the kernel would send it to this socket (another program's doing).
    public func inject(_ event: MgmtEvent) { push(event.packet.bytes) }

    /// What bluetoothd does when it starts (Remove Advertising 0 on its own socket): every
    /// instance goes, and this socket hears Advertising Removed for each.
    public func removeEveryInstanceAsBluetoothdStarts() {
        let gone = state.withLock { s -> [UInt8] in
            defer { s.instances = [:]; s.parameters = [:] }
            return s.instances.keys.sorted()
        }
        for instance in gone { inject(.advertisingRemoved(instance: instance, index: index)) }
    }

    /// Another program adds (or replaces) `instance` with `data`, as bluetoothd does with an
    /// instance number from its own bookkeeping: this socket hears Advertising Added.
    public func anotherProgramAdds(instance: UInt8, data: [UInt8]) {
        state.withLock { $0.instances[instance] = data; $0.parameters[instance] = nil }
        inject(.advertisingAdded(instance: instance, index: index))
    }

    /// The adapter goes away and comes back (a driver reset, a replugged dongle): Index Removed,
    /// every instance lost, Index Added.
    public func removeAndAddIndex() {
        inject(.indexRemoved(index: index))
        state.withLock { $0.instances = [:]; $0.parameters = [:] }
        inject(.indexAdded(index: index))
    }

    public func send(_ packet: [UInt8]) throws(TransportError) {
        guard !state.withLock({ $0.closed }) else { throw .closed(adapter: adapterName) }
        guard let command = try? MgmtPacket(decoding: packet) else { return }
        if case .writeFails(let errno)? = state.withLock({ $0.overrides[command.header.code] }) {
            throw .system(SystemCallError(call: "write", errno: errno), adapter: adapterName)
        }
        let reply = state.withLock { s -> [UInt8]? in
            s.received.append(command)
            return answer(command, &s)
        }
        if let reply { push(reply) }
    }

    public func receive(timeout: Duration) throws(TransportError) -> [UInt8]? {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        ready.lock()
        defer { ready.unlock() }
        while true {
            let next = state.withLock { s -> Result<[UInt8]?, TransportError> in
                if s.closed { return .failure(.closed(adapter: adapterName)) }
                return .success(s.outbox.isEmpty ? nil : s.outbox.removeFirst())
            }
            switch next {
            case .failure(let e): throw e
            case .success(let bytes?): return bytes
            case .success(nil): if !ready.wait(until: deadline) { return nil }
            }
        }
    }

    public func close() {
        state.withLock { $0.closed = true }
        ready.broadcast()
    }

    private func push(_ bytes: [UInt8]) {
        ready.lock()
        state.withLock { $0.outbox.append(bytes) }
        ready.broadcast()
        ready.unlock()
    }

    private func complete(_ opcode: UInt16, _ index: UInt16, _ status: MgmtStatus, _ rest: [UInt8] = []) -> [UInt8] {
        MgmtEvent.commandComplete(MgmtCommandCompleteEvent(opcode: MgmtOpcode(rawValue: opcode), status: status, returnParameters: rest), index: index).packet.bytes
    }

    private func commandStatus(_ opcode: UInt16, _ index: UInt16, _ status: MgmtStatus) -> [UInt8] {
        MgmtEvent.commandStatus(MgmtCommandStatusEvent(opcode: MgmtOpcode(rawValue: opcode), status: status), index: index).packet.bytes
    }

    private func answer(_ command: MgmtPacket, _ s: inout State) -> [UInt8]? {
        let code = command.header.code
        let index = command.header.index
        switch s.overrides[code] {
        case .silence, .writeFails: return nil
        case .status(let status): return complete(code, index, status)
        case nil: break
        }
        if code == ReadManagementVersionInformation.opcode.rawValue {
            return complete(code, index, .success, supportsExtendedCommands ? [1, 22, 0] : [1, 14, 0])
        }
        guard index == self.index else { return commandStatus(code, index, .invalidIndex) }
        switch code {
        case ReadControllerInformation.opcode.rawValue where bluetoothVersion != nil:
            // Address, Bluetooth_Version, Manufacturer 0x05F1, Supported_Settings, Current_Settings
            // (powered, LE, advertising), Class_Of_Device, Name, Short_Name.
            let reply: [UInt8] = [1, 2, 3, 4, 5, 6, bluetoothVersion!.rawValue, 0xF1, 0x05, 0xFF, 0xFF, 0x01, 0x00, 0x01, 0x0A, 0x00, 0x00, 0, 0, 0]
                + [UInt8](repeating: 0, count: 249 + 11)
            return complete(code, index, .success, reply)
        case ReadAdvertisingFeatures.opcode.rawValue:
            let taken = s.instances.keys.sorted()
            var flags: MgmtAdvertisingFlags = supportsExtendedCommands ? [.connectable, .discoverable, .managedFlags, .txPower, .canSetTxPower, .useIntervals, .useTxPower] : [.connectable, .discoverable, .managedFlags, .txPower]
            if controllerRunsInstances { flags.insert(.hardwareOffload) }
            var writer = HCIWriter()
            ReadAdvertisingFeatures.ReturnParameters(supportedFlags: flags, maxAdvertisingDataLength: 31, maxScanResponseLength: 31, maxInstances: maxInstances, instances: taken).encode(into: &writer)
            return complete(code, index, .success, writer.bytes)
        case AddExtendedAdvertisingParameters.opcode.rawValue where supportsExtendedCommands:
            guard let p = try? AddExtendedAdvertisingParameters(parameters: command.parameters), (1...maxInstances).contains(p.instance) else {
                return complete(code, index, .invalidParameters)
            }
            if s.instances[p.instance] == nil, let sets = controllerSets, s.instances.count >= sets {
                return complete(code, index, .noResources)  // the controller's sets are all in use
            }
            s.parameters[p.instance] = p
            if s.instances[p.instance] == nil { s.instances[p.instance] = [] }
            // The controller selects the power asked for, capped at +10 dBm; 127 when the kernel
            // never learns it.
            let power = learnsSelectedPower ? min(p.txPower, 10) : 127
            return complete(code, index, .success, [p.instance, UInt8(bitPattern: power), 31, 31])
        case AddExtendedAdvertisingData.opcode.rawValue where supportsExtendedCommands:
            guard let d = try? AddExtendedAdvertisingData(parameters: command.parameters), s.parameters[d.instance] != nil else {
                return complete(code, index, .invalidParameters)
            }
            s.instances[d.instance] = d.advertisingData
            return complete(code, index, .success, [d.instance])
        case AddAdvertising.opcode.rawValue:
            guard let a = try? AddAdvertising(parameters: command.parameters), (1...maxInstances).contains(a.instance) else {
                return complete(code, index, .invalidParameters)
            }
            s.instances[a.instance] = a.advertisingData
            return complete(code, index, .success, [a.instance])
        case RemoveAdvertising.opcode.rawValue:
            guard let r = try? RemoveAdvertising(parameters: command.parameters) else { return complete(code, index, .invalidParameters) }
            if r.removesAll {
                s.instances = [:]
                s.parameters = [:]
            } else {
                guard s.instances.removeValue(forKey: r.instance) != nil else { return complete(code, index, .invalidParameters) }
                s.parameters[r.instance] = nil
            }
            return complete(code, index, .success, [r.instance])
        default:
            return commandStatus(code, index, .unknownCommand)
        }
    }
}
