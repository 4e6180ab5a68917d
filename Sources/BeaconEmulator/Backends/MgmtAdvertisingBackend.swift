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
    public var adapter: String { mgmt.adapterName }
    private let info: ManagementAPIInfo
    /// Instances beacon added and has not removed yet: the only ones teardown touches.
    private let added = Mutex<Set<UInt8>>([])

    public init(mgmt: MgmtController, capabilities: ControllerCapabilities) {
        precondition(capabilities.managementAPI != nil, "a management backend needs a management API probe")
        self.mgmt = mgmt
        self.capabilities = capabilities
        self.info = capabilities.managementAPI!
    }

    /// The instance that carries advertiser `handle`, if there are enough free instances.
    func instance(for handle: UInt8) -> UInt8? {
        let free = info.freeInstances
        return Int(handle) < free.count ? free[Int(handle)] : nil
    }

    public func validate(_ state: AdvertisingState) throws {
        for configuration in state.values {
            for command in try commands(for: configuration) {
                do throws(HCIValidationError) { try command.validate() } catch {
                    throw MgmtControllerError.invalid(error, command: type(of: command).name)
                }
            }
        }
    }

    /// Nothing to clear: the instances beacon uses were free when probed, and every other
    /// instance belongs to another program (bluetoothd, btmgmt, …) and must keep running.
    public func prepare() async throws {}

    public func transition(from old: AdvertisingState, to new: AdvertisingState) async throws -> Transition {
        var sent = 0
        var selected: [UInt8: Int8] = [:]
        for handle in old.keys.sorted() where new[handle] == nil {
            if try await remove(handle: handle) { sent += 1 }
        }
        for handle in new.keys.sorted() {
            guard let configuration = new[handle], old[handle] != configuration else { continue }
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

    public func teardown(timeout: Duration?) async throws {
        var failure: (any Error)?
        for instance in added.withLock({ $0.sorted() }) {
            do throws(MgmtControllerError) {
                try await mgmt.send(RemoveAdvertising(instance: instance), timeout: timeout)
                _ = added.withLock { $0.remove(instance) }
            } catch {
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
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

    /// Sends one command; the selected TX power when it was Add Extended Advertising Parameters.
    private func send(_ command: any MgmtCommand) async throws(MgmtControllerError) -> Int8? {
        if let parameters = command as? AddExtendedAdvertisingParameters {
            return try await mgmt.send(parameters).txPower
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
