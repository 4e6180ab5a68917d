// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCI
import HCITransport

/// Advertising over HCI, in one of the controller's two advertising modes (a controller refuses
/// the other family of commands until its next reset, Core Vol 4 Part E §3.1.1):
///
/// - **extended sets** (§7.8.53–§7.8.60): one LE extended advertising set per advertiser, each
///   with legacy non-connectable PDUs, its own random address, interval and TX power;
/// - **legacy** (§7.8.5–§7.8.9): the one legacy advertiser, ADV_NONCONN_IND from a random
///   address; beacons that share it take turns.
///
/// What to send comes from ``AdvertisingProgram`` (the fewest commands between two states).
public struct HCIAdvertisingBackend: AdvertisingBackend {
    public let hci: HCIController
    public let capabilities: ControllerCapabilities
    /// Extended advertising sets (true) or the legacy advertiser (false).
    public let extended: Bool
    public var adapter: String { hci.adapterName }

    public init(hci: HCIController, capabilities: ControllerCapabilities, extended: Bool) {
        self.hci = hci
        self.capabilities = capabilities
        self.extended = extended
    }

    /// LE extended advertising sets.
    public static func extendedSets(_ hci: HCIController, _ capabilities: ControllerCapabilities) -> HCIAdvertisingBackend {
        HCIAdvertisingBackend(hci: hci, capabilities: capabilities, extended: true)
    }

    /// The one legacy advertiser.
    public static func legacy(_ hci: HCIController, _ capabilities: ControllerCapabilities) -> HCIAdvertisingBackend {
        HCIAdvertisingBackend(hci: hci, capabilities: capabilities, extended: false)
    }

    var sender: HCICommandSender { HCICommandSender(hci: hci, info: capabilities.hciInfo) }

    public func validate(_ state: AdvertisingState) throws {
        try sender.validate(AdvertisingProgram.steps(from: [:], to: state, extended: extended))
    }

    public func prepare() async throws {
        try await sender.send(AdvertisingProgram.clean(extended: extended))
    }

    public func transition(from old: AdvertisingState, to new: AdvertisingState) async throws -> Transition {
        let steps = AdvertisingProgram.steps(from: old, to: new, extended: extended)
        return Transition(selectedTxPower: try await sender.send(steps), commands: steps.count)
    }

    public func teardown(timeout: Duration?) async throws {
        try await sender.send(AdvertisingProgram.clean(extended: extended), timeout: timeout, allOf: true)
    }
}

/// Sends a backend's HCI commands in order, and validates them first.
struct HCICommandSender {
    var hci: HCIController
    var info: HCIControllerInfo

    /// Every command checked against the controller, so a bad value leaves it untouched.
    func validate(_ commands: [any HCICommand]) throws(HCIControllerError) {
        for command in commands {
            do throws(HCIValidationError) { try command.validate(for: info) } catch {
                throw .invalid(error, command: type(of: command).name)
            }
        }
    }

    /// Sends `commands` one after another; returns the selected TX power per set whose extended
    /// parameters were set. The first failure stops the sequence, unless `allOf` (a teardown:
    /// each step is tried, and the first failure is thrown after the last).
    @discardableResult
    func send(_ commands: [any HCICommand], timeout: Duration? = nil, allOf: Bool = false) async throws(HCIControllerError) -> [UInt8: Int8] {
        var selected: [UInt8: Int8] = [:]
        var failure: HCIControllerError?
        for command in commands {
            do throws(HCIControllerError) {
                if let power = try await sendOne(command, timeout: timeout) { selected[power.handle] = power.dBm }
            } catch {
                if !allOf { throw error }
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        return selected
    }

    private func sendOne<C: HCICommand>(_ command: C, timeout: Duration?) async throws(HCIControllerError) -> (handle: UInt8, dBm: Int8)? {
        let reply = try await hci.send(command, timeout: timeout)
        if let p = command as? LESetExtendedAdvertisingParameters, let r = reply as? LESetExtendedAdvertisingParameters.ReturnParameters {
            return (p.handle, r.selectedTxPower)
        }
        return nil
    }
}
