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
///
/// **Controller-timed turns** (extended sets on a controller we own): a rotating beacon's set is
/// enabled with Max_Extended_Advertising_Events = its events per turn (§7.8.56), so the
/// controller stops it after exactly that many events and says so with LE Advertising Set
/// Terminated (§7.7.65.18), which ``prepare()`` unmasks (§7.3.1, §7.8.1). The running fleet
/// then starts the next turn as soon as every set of the turn has stopped; its host timer stays
/// the backstop for a controller that ignores the limit or never sends the event.
///
/// Commands that do not depend on each other (the same command for several sets) go out
/// together, as far as the controller's Num_HCI_Command_Packets allows; each kind of command
/// waits for the replies to the kind before it (parameters → address → data → enable).
public struct HCIAdvertisingBackend: AdvertisingBackend {
    public let hci: HCIController
    public let capabilities: ControllerCapabilities
    /// Extended advertising sets (true) or the legacy advertiser (false).
    public let extended: Bool
    /// Whether rotating sets are enabled with their events per turn and the controller's stops
    /// are counted (see above).
    public let controllerTimesTurns: Bool
    public var adapter: AdapterName { AdapterName(hci.adapterName) }

    /// - Parameters:
    ///   - hci: the controller's session.
    ///   - capabilities: the controller as probed.
    ///   - extended: drive it with extended advertising commands (else legacy ones).
    ///   - controllerTimedTurns: ask for controller-timed turns; granted only with
    ///     extended sets. Only for a controller we own: its event masks are set (on the kernel's
    ///     shared raw socket the kernel owns them).
    public init(hci: HCIController, capabilities: ControllerCapabilities, extended: Bool, controllerTimedTurns: Bool = false) {
        self.hci = hci
        self.capabilities = capabilities
        self.extended = extended
        self.controllerTimesTurns = controllerTimedTurns && extended
    }

    /// LE extended advertising sets.
    public static func extendedSets(_ hci: HCIController, _ capabilities: ControllerCapabilities, controllerTimedTurns: Bool = false) -> HCIAdvertisingBackend {
        HCIAdvertisingBackend(hci: hci, capabilities: capabilities, extended: true, controllerTimedTurns: controllerTimedTurns)
    }

    /// The one legacy advertiser.
    public static func legacy(_ hci: HCIController, _ capabilities: ControllerCapabilities) -> HCIAdvertisingBackend {
        HCIAdvertisingBackend(hci: hci, capabilities: capabilities, extended: false)
    }

    var sender: HCICommandSender { HCICommandSender(hci: hci, info: capabilities.hciInfo) }

    public func validate(_ state: AdvertisingState) throws(AdapterError) {
        do throws(HCIControllerError) {
            try sender.validate(AdvertisingProgram.steps(from: [:], to: state, extended: extended, limitEvents: controllerTimesTurns))
        } catch { throw .hci(error) }
    }

    public func prepare() async throws(AdapterError) {
        do throws(HCIControllerError) {
            try await sender.send(AdvertisingProgram.preamble(extended: extended, controllerTimedTurns: controllerTimesTurns))
        } catch { throw .hci(error) }
    }

    public func transition(from old: AdvertisingState, to new: AdvertisingState) async throws(AdapterError) -> Transition {
        try await transition(from: old, to: new, stopped: [])
    }

    public func transition(from old: AdvertisingState, to new: AdvertisingState, stopped: Set<UInt8>) async throws(AdapterError) -> Transition {
        let steps = AdvertisingProgram.steps(from: old, to: new, extended: extended, limitEvents: controllerTimesTurns,
                                             stopped: controllerTimesTurns ? stopped : [])
        do throws(HCIControllerError) {
            let sent = try await sender.send(steps, countingStops: controllerTimesTurns)
            return Transition(selectedTxPower: sent.selectedTxPower, commands: steps.count, selfStopsAtEnable: sent.stopsAtEnable)
        } catch { throw .hci(error) }
    }

    public func teardown(timeout: Duration?) async throws(AdapterError) {
        do throws(HCIControllerError) {
            try await sender.send(AdvertisingProgram.clean(extended: extended), timeout: timeout, allOf: true)
        } catch { throw .hci(error) }
    }

    public var selfStops: [UInt8: Int] { controllerTimesTurns ? hci.advertisingSetTerminations : [:] }

    public func onSelfStop(_ wake: @escaping @Sendable () -> Void) {
        guard controllerTimesTurns else { return }
        hci.onAdvertisingSetTerminated { _ in wake() }
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

    /// What a sequence of commands gave.
    struct Sent {
        /// The selected TX power per set whose extended parameters were set.
        var selectedTxPower: [UInt8: Int8] = [:]
        /// The controller's self-stops counted just before the first enable (or at the end).
        var stopsAtEnable: [UInt8: Int]?
    }

    /// Sends `commands` in order, one kind at a time: a run of the same command (for different
    /// sets) is sent without waiting for each reply, the next kind after the last reply. The
    /// first failure stops the sequence, unless `allOf` (a teardown: each step is tried, and the
    /// first failure is thrown after the last).
    @discardableResult
    func send(_ commands: [any HCICommand], timeout: Duration? = nil, allOf: Bool = false, countingStops: Bool = false) async throws(HCIControllerError) -> Sent {
        var sent = Sent()
        var failure: HCIControllerError?
        for batch in Self.batches(commands) {
            if countingStops, sent.stopsAtEnable == nil, Self.enables(batch[0]) { sent.stopsAtEnable = hci.advertisingSetTerminations }
            do throws(HCIControllerError) {
                let replies = try await hci.sendAll(batch, timeout: timeout)
                for (command, reply) in zip(batch, replies) {
                    guard let p = command as? LESetExtendedAdvertisingParameters else { continue }
                    do throws(HCICommandError) {
                        sent.selectedTxPower[p.handle] = try reply.result(for: LESetExtendedAdvertisingParameters.self).selectedTxPower
                    } catch {
                        throw .command(error, adapter: hci.adapterName)
                    }
                }
            } catch {
                if !allOf { throw error }
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        if countingStops, sent.stopsAtEnable == nil { sent.stopsAtEnable = hci.advertisingSetTerminations }
        return sent
    }

    /// Runs of the same command, which touch different sets and so do not depend on each other.
    static func batches(_ commands: [any HCICommand]) -> [[any HCICommand]] {
        var batches: [[any HCICommand]] = []
        for command in commands {
            if let last = batches.last?.last, kind(of: last) == kind(of: command) {
                batches[batches.count - 1].append(command)
            } else {
                batches.append([command])
            }
        }
        return batches
    }

    /// A command's opcode, with enabling and disabling told apart.
    private static func kind(of command: any HCICommand) -> String {
        let opcode = type(of: command).opcode.rawValue
        if let e = command as? LESetExtendedAdvertisingEnable { return "\(opcode)/\(e.isEnabled)" }
        return "\(opcode)"
    }

    private static func enables(_ command: any HCICommand) -> Bool {
        (command as? LESetExtendedAdvertisingEnable)?.isEnabled == true
    }
}
