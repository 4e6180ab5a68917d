// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCI
import HCITransport
import Mgmt
import Synchronization

/// Advertising through the kernel's management API (`-i mgmt:hci0`): each advertiser is one of
/// the kernel's advertising instances, next to bluetoothd's and other programs', which beacon
/// never changes or removes.
///
/// - Advertiser handle h takes the h-th instance that was free when the adapter was probed
///   (instances 1…Max_Instances; usually h + 1). Instance 0 ("remove all") is never sent.
/// - With Add Extended Advertising Parameters (kernel 5.10+): the advertiser's interval and TX
///   power (flag bits 14, 15), then Add Extended Advertising Data, which puts it on air. The
///   controller's selected TX power is reported.
/// - Without it: Add Advertising, which has no interval: the kernel's 1.28 s.
/// - Flags (connectable, discoverable, managed flags …) are all left clear: the kernel then adds
///   no Flags structure of its own and accepts ours (net/bluetooth/mgmt.c, tlv_data_is_valid),
///   so phones see exactly the profile's bytes on legacy PDUs. The kernel picks the address
///   (a non-resolvable private one for non-connectable advertising), not the profile's.
public final class MgmtAdvertisingBackend: AdvertisingBackend {
    public let mgmt: MgmtController
    public let capabilities: ControllerCapabilities
    public var adapter: AdapterName { AdapterName(mgmt.adapterName) }
    private let info: ManagementAPIInfo
    /// Instances beacon added and has not removed yet: the only ones teardown touches.
    private let added = Mutex<Set<UInt8>>([])
    /// Advertisers moved to another instance because another program took theirs (see
    /// ``loss(from:)``): handle → instance.
    private let moved = Mutex<[UInt8: UInt8]>([:])
    /// Instances another program took over from beacon: never touched again.
    private let theirs = Mutex<Set<UInt8>>([])
    /// Whether the adapter is powered, as the last New Settings said (it was when the run
    /// started: beacon advertised; nil: not known, after Index Added). The kernel refuses new
    /// instances while it is off (Add Extended Advertising Parameters: Rejected), so a restore
    /// waits for the power-on event.
    private let powered = Mutex<Bool?>(true)

    public init(mgmt: MgmtController, capabilities: ControllerCapabilities) {
        precondition(capabilities.managementAPI != nil, "a management backend needs a management API probe")
        self.mgmt = mgmt
        self.capabilities = capabilities
        self.info = capabilities.managementAPI!
    }

    /// The instance that carries advertiser `handle`, if there are enough free instances.
    func instance(for handle: UInt8) -> UInt8? {
        if let instance = moved.withLock({ $0[handle] }) { return instance }
        let free = info.freeInstances
        return Int(handle) < free.count ? free[Int(handle)] : nil
    }

    public func validate(_ state: AdvertisingState) throws(AdapterError) {
        for configuration in state.values {
            let steps: [any MgmtCommand]
            do throws(MgmtControllerError) { steps = try commands(for: configuration) } catch { throw .management(error) }
            for command in steps {
                do throws(HCIValidationError) { try command.validate() } catch {
                    throw .management(.invalid(error, command: type(of: command).name))
                }
            }
        }
    }

    /// Nothing to clear: the instances beacon uses were free when probed, and every other
    /// instance belongs to another program (bluetoothd, btmgmt, …) and must keep running.
    public func prepare() async throws(AdapterError) {}

    public func transition(from old: AdvertisingState, to new: AdvertisingState) async throws(AdapterError) -> Transition {
        do throws(MgmtControllerError) { return try await send(from: old, to: new) } catch { throw .management(error) }
    }

    private func send(from old: AdvertisingState, to new: AdvertisingState) async throws(MgmtControllerError) -> Transition {
        var sent = 0
        var selected: [UInt8: Int8] = [:]
        for handle in old.keys.sorted() where new[handle] == nil {
            if try await remove(handle: handle) { sent += 1 }
        }
        for handle in new.keys.sorted() {
            guard let configuration = new[handle], old[handle] != configuration else { continue }
            // An instance another program took over stays theirs until the watchdog moves the
            // advertiser to a free one.
            if let instance = instance(for: handle), theirs.withLock({ $0.contains(instance) }) { continue }
            let steps = try commands(for: configuration)
            // Ours from the first command on: if the data is refused after the parameters were
            // taken, the kernel holds the instance and teardown must remove it.
            if let instance = instance(for: handle) { _ = added.withLock { $0.insert(instance) } }
            for command in steps {
                if let power = try await send(command) { selected[handle] = power }
                sent += 1
            }
        }
        return Transition(selectedTxPower: selected, commands: sent)
    }

    public func teardown(timeout: Duration?) async throws(AdapterError) {
        var failure: AdapterError?
        for instance in added.withLock({ $0.sorted() }) {
            do throws(MgmtControllerError) {
                try await mgmt.send(RemoveAdvertising(instance: instance), timeout: timeout)
                _ = added.withLock { $0.remove(instance) }
            } catch where error.status == .invalidParameters {
                // No such instance: the kernel dropped it already (its parameters were refused,
                // or it went in a power cycle before the watchdog saw it).
                _ = added.withLock { $0.remove(instance) }
            } catch {
                if failure == nil { failure = .management(error) }
            }
        }
        if let failure { throw failure }
    }

    // MARK: - Watchdog

    /// The loss a management event stands for, if any: one of our instances removed (bluetoothd
    /// removes every instance when it starts; another program may remove ours), the adapter
    /// powered on again or back after Index Removed (instances may not have survived).
    /// Advertising Removed for an instance is sent to every socket but the remover's, so ours
    /// never raise it by themselves.
    public func loss(from event: MgmtEvent) -> AdvertisingLoss? {
        switch event {
        case let .advertisingRemoved(instance, index) where index == mgmt.index:
            guard added.withLock({ $0.remove(instance) }) != nil else { return nil }
            return AdvertisingLoss(reason: "the kernel removed instance \(instance) (bluetoothd restarted, or another program removed it)", cleared: false)
        case let .advertisingAdded(instance, index) where index == mgmt.index:
            // Advertising Added never comes for our own commands: another program (bluetoothd
            // picks instance numbers from its own bookkeeping) added or replaced this instance.
            guard added.withLock({ $0.remove(instance) }) != nil else { return nil }
            _ = theirs.withLock { $0.insert(instance) }
            return AdvertisingLoss(reason: "another program took instance \(instance) (Advertising Added); beacon moves to a free one", cleared: false)
        case let .indexAdded(index) where index == mgmt.index:
            added.withLock { $0.removeAll() }
            powered.withLock { $0 = nil }  // the restore asks the kernel
            return AdvertisingLoss(reason: "hci\(index) came back (Index Added)", cleared: true, adapterBack: true)
        case let .indexRemoved(index) where index == mgmt.index:
            added.withLock { $0.removeAll() }
            powered.withLock { $0 = false }
            return AdvertisingLoss(reason: "hci\(index) went away (Index Removed)", cleared: true)
        case let .other(code, index, parameters) where code == Self.newSettingsCode && index == mgmt.index && parameters.count >= 4:
            // New Settings: Current_Settings, bit 0 Powered. Only the power-on matters (bluetoothd
            // sends many settings while it starts): instances the kernel kept are scheduled again
            // by itself, the restore adds back those it dropped.
            let isPowered = parameters[0] & 1 == 1
            let was = powered.withLock { p in defer { p = isPowered }; return p }
            guard isPowered, was != true else { return nil }
            return AdvertisingLoss(reason: "hci\(index) was powered on again (New Settings)", cleared: false, adapterBack: true)
        default:
            return nil
        }
    }

    /// New Settings — doc/mgmt-api.txt: Event Code 0x0006, Current_Settings (4 octets).
    static let newSettingsCode: UInt16 = 0x0006

    /// Adds again every advertiser whose instance the kernel no longer has (Read Advertising
    /// Features lists the instances present).
    public func restore(_ state: AdvertisingState, after loss: AdvertisingLoss) async throws(AdapterError) -> [UInt8] {
        do throws(MgmtControllerError) { return try await putBack(state) } catch { throw .management(error) }
    }

    private func putBack(_ state: AdvertisingState) async throws(MgmtControllerError) -> [UInt8] {
        // Powered off (bluetoothd powers the adapter off when it exits, and on when it starts
        // again): the kernel would refuse the instance; the power-on's New Settings restores.
        guard powered.withLock({ $0 }) != false else {
            throw .failed(command: "Add Extended Advertising Parameters", opcode: AddExtendedAdvertisingParameters.opcode, status: .notPowered, adapter: adapter.text)
        }
        let features = try await mgmt.send(ReadAdvertisingFeatures())
        let present = Set(features.instances)
        var restored: [UInt8] = []
        for handle in state.keys.sorted() {
            guard let configuration = state[handle], var instance = instance(for: handle) else { continue }
            if present.contains(instance), added.withLock({ $0.contains(instance) }) { continue }
            if theirs.withLock({ $0.contains(instance) }) {
                // Another program's now: a free instance instead, or none (then this beacon
                // stays off air until one is free; the next loss tries again).
                let ours = Set(state.keys.compactMap { self.instance(for: $0) })
                let exclude = theirs.withLock { $0 }
                guard features.maxInstances > 0,
                      let free = (1...features.maxInstances).first(where: { !present.contains($0) && !ours.contains($0) && !exclude.contains($0) }) else { continue }
                moved.withLock { $0[handle] = free }
                instance = free
            }
            _ = added.withLock { $0.insert(instance) }
            for command in try commands(for: configuration) { _ = try await send(command) }
            restored.append(handle)
        }
        return restored
    }

    // MARK: - Commands

    /// What puts `configuration` on air on its instance.
    func commands(for configuration: AdvertisingSetConfiguration) throws(MgmtControllerError) -> [any MgmtCommand] {
        guard let instance = instance(for: configuration.handle) else {
            let taken = info.takenInstances.isEmpty ? "" : " (other programs hold \(info.takenInstances.map(String.init).joined(separator: ", ")))"
            throw .invalid(.valueOutOfRange(field: "advertiser", value: UInt64(configuration.handle), allowed: "0…\(max(0, info.freeInstances.count - 1)): \(adapter) has \(info.freeInstances.count) free of \(info.maxInstances) instances\(taken)"), command: "Add Advertising")
        }
        let data = Array(configuration.data)
        // With scan response data the kernel advertises scannable (ADV_SCAN_IND).
        let response = configuration.scanResponse.map(Array.init) ?? []
        guard info.extendedCommands else {
            return [AddAdvertising(instance: instance, advertisingData: data, scanResponse: response)]
        }
        // Only flags the kernel lists as supported: it refuses any other with Invalid Parameters
        // (mgmt.c, requested_adv_flags_are_valid).
        var flags: MgmtAdvertisingFlags = info.supportedFlags.intersection(.useIntervals)
        if configuration.txPower != nil { flags.formUnion(info.supportedFlags.intersection(.useTxPower)) }
        let interval = configuration.interval.rawValue
        return [
            AddExtendedAdvertisingParameters(instance: instance, flags: flags, minInterval: interval, maxInterval: interval, txPower: configuration.txPower ?? 0),
            AddExtendedAdvertisingData(instance: instance, advertisingData: data, scanResponse: response),
        ]
    }

    /// Sends one command; the selected TX power when it was Add Extended Advertising Parameters
    /// and the kernel knows it (a legacy-only controller's is never known: TX power 127).
    private func send(_ command: any MgmtCommand) async throws(MgmtControllerError) -> Int8? {
        if let parameters = command as? AddExtendedAdvertisingParameters {
            return try await mgmt.send(parameters).selectedTxPower
        }
        try await sendUntyped(command)
        return nil
    }

    private func sendUntyped<C: MgmtCommand>(_ command: C) async throws(MgmtControllerError) {
        try await mgmt.send(command)
    }

    /// Removes advertiser `handle`'s instance if beacon added it; whether a command was sent.
    private func remove(handle: UInt8) async throws(MgmtControllerError) -> Bool {
        guard let instance = instance(for: handle), added.withLock({ $0.contains(instance) }) else { return false }
        try await mgmt.send(RemoveAdvertising(instance: instance))
        _ = added.withLock { $0.remove(instance) }
        return true
    }
}
