// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// The HCI commands that carry out one ``AdapterPlan``: a clean start, the setup that puts the
/// first slot on air, the commands for each later slot, and the teardown.
///
/// Every step is the difference between two states of the controller, so each slot sends only
/// what must change: data alone when address and parameters stay; disable → parameters/address →
/// data → enable when they do not (they may not change while advertising is enabled).
public struct AdvertisingProgram: Sendable {
    public var extended: Bool
    /// Leaves the controller with nothing on air and no sets, whatever an earlier (killed) run left.
    public var preamble: [any HCICommand]
    /// From nothing to slot 0 on air.
    public var setup: [any HCICommand]
    /// `slots[k]`: from slot k−1 to slot k (slot 0 follows the last one). Empty when nothing rotates.
    public var slots: [[any HCICommand]]
    /// Advertising off and every set removed.
    public var teardown: [any HCICommand]
    /// What is on air in each slot, per handle.
    public var states: [AdvertisingState]

    /// - Parameters:
    ///   - plan: one adapter's share of a fleet plan.
    ///   - controllerTimedTurns: as a running fleet does on a controller it owns (see
    ///   ``HCIAdvertisingBackend``): the preamble unmasks LE Advertising Set Terminated, and
    ///     rotating sets are enabled with their events per turn. The slots are then the ones the
    ///     host sends when it times the turns (a set the controller stopped needs no disable).
    public init(plan: AdapterPlan, controllerTimedTurns: Bool = false) {
        let extended = plan.mode != .legacy
        let limits = controllerTimedTurns && extended
        self.extended = extended
        let states = Self.states(of: plan)
        let count = states.count
        self.states = states
        preamble = Self.preamble(extended: extended, controllerTimedTurns: limits)
        teardown = Self.clean(extended: extended)
        setup = Self.steps(from: [:], to: states[0], extended: extended, limitEvents: limits)
        slots = count > 1 ? (0..<count).map { k in
            Self.steps(from: states[(k + count - 1) % count], to: states[k], extended: extended, limitEvents: limits)
        } : []
    }

    /// The default event masks plus what controller-timed turns need: LE Meta events (Core Vol 4
    /// Part E §7.3.1) and, among them, LE Advertising Set Terminated (§7.8.1). The default event
    /// mask keeps Hardware Error.
    static let controllerTimingMasks: [any HCICommand] = [
        HCISetEventMask(.default.union(.leMeta)),
        LESetEventMask(.default.union(.advertisingSetTerminated)),
    ]

    /// A clean start, with the event masks controller-timed turns need first.
    static func preamble(extended: Bool, controllerTimedTurns: Bool) -> [any HCICommand] {
        (controllerTimedTurns && extended ? controllerTimingMasks : []) + clean(extended: extended)
    }

    /// What is on air in each slot of `plan`'s rotation, per handle (one state when nothing rotates).
    public static func states(of plan: AdapterPlan) -> [AdvertisingState] {
        (0..<max(1, plan.slotsPerCycle)).map { slot in
            var s: AdvertisingState = [:]
            for adv in plan.advertisers {
                if let b = adv.beacon(inSlot: slot) {
                    var config = AdvertisingSetConfiguration(handle: adv.handle, beacon: b)
                    config.interval = plan.onAirInterval(of: b)
                    if let shared = adv.sharedAddress { config.address = shared }
                    // A set restarted for each turn can be told how many events the turn has
                    // (a set that keeps its address stays enabled and only gets new data).
                    if plan.mode == .extendedRotation, adv.beacons.count > 1, adv.sharedAddress == nil {
                        let events = plan.eventsPerTurn(of: b)
                        if events <= Int(UInt8.max) { config.eventsPerTurn = UInt8(events) }
                    }
                    s[adv.handle] = config
                }
            }
            return s
        }
    }

    /// Advertising off, sets gone. Disabling what is already disabled is harmless (Core Vol 4
    /// Part E §7.8.9, §7.8.56), so this is safe to send at any time in the controller's mode.
    public static func clean(extended: Bool) -> [any HCICommand] {
        extended ? [LESetExtendedAdvertisingEnable.disableAll, LEClearAdvertisingSets()] : [LESetAdvertisingEnable(false)]
    }

    /// The fewest commands that take the controller from `old` to `new`.
    ///
    /// - Parameters:
    ///   - old: what is on air now, per advertising handle (legacy advertising: handle 0).
    ///   - new: what should be on air, per handle.
    ///   - extended: whether the controller is driven with extended advertising commands.
    ///   - limitEvents: extended sets only: enable each set with its ``AdvertisingSetConfiguration/eventsPerTurn``
    ///     as Max_Extended_Advertising_Events, so the controller ends its turn; such a set is
    ///     enabled again for every turn (enabling an enabled set restarts its count, §7.8.56).
    ///   - stopped: sets the controller has stopped by itself since they were last enabled (LE
    ///     Advertising Set Terminated): they need no disable.
    public static func steps(from old: [UInt8: AdvertisingSetConfiguration], to new: [UInt8: AdvertisingSetConfiguration], extended: Bool,
                             limitEvents: Bool = false, stopped: Set<UInt8> = []) -> [any HCICommand] {
        extended ? extendedSteps(from: old, to: new, limitEvents: limitEvents, stopped: stopped) : legacySteps(from: old[0], to: new[0])
    }

    static func extendedSteps(from old: [UInt8: AdvertisingSetConfiguration], to new: [UInt8: AdvertisingSetConfiguration],
                              limitEvents: Bool = false, stopped: Set<UInt8> = []) -> [any HCICommand] {
        let removed = old.keys.filter { new[$0] == nil }.sorted()
        let added = new.keys.filter { old[$0] == nil }.sorted()
        let changed = new.keys.filter { old[$0] != nil && old[$0] != new[$0] }.sorted()
        // A set's parameters and random address may change only while it is disabled.
        let restarted = changed.filter { old[$0]!.parameters != new[$0]!.parameters || old[$0]!.address != new[$0]!.address }
        // A set the controller stops after its events needs an enable for every turn, even when
        // only its data changes; and a set that had a limit needs one to lift it (it may have
        // stopped already, or would stop after its events).
        let rearmed = limitEvents ? new.keys.filter { h in
            old[h] != nil && !restarted.contains(h) && (new[h]!.eventsPerTurn > 0 || old[h]!.eventsPerTurn > 0)
        }.sorted() : []
        var steps: [any HCICommand] = []
        let off = (removed + restarted).filter { !stopped.contains($0) }.sorted()
        // One disable (and below one enable) for every set that changes, split only by the
        // command's 63-set limit (§7.8.56).
        steps += LESetExtendedAdvertisingEnable.commands(false, sets: off.map { .init(handle: $0) })
        for h in removed { steps.append(LERemoveAdvertisingSet(handle: h)) }
        for h in added { steps.append(new[h]!.extendedParameters) }
        for h in restarted where old[h]!.parameters != new[h]!.parameters { steps.append(new[h]!.extendedParameters) }
        for h in added { steps.append(new[h]!.extendedAddress) }
        for h in restarted where old[h]!.address != new[h]!.address { steps.append(new[h]!.extendedAddress) }
        for h in added { steps.append(new[h]!.extendedData) }
        // Data of a set with legacy PDUs may be replaced while it is enabled (operation 0x03, §7.8.54).
        for h in changed where old[h]!.data != new[h]!.data { steps.append(new[h]!.extendedData) }
        // So may its scan response (§7.8.55); a set that became scannable was restarted above.
        for h in added { if let r = new[h]!.extendedScanResponse { steps.append(r) } }
        for h in changed where old[h]!.scanResponse != new[h]!.scanResponse { if let r = new[h]!.extendedScanResponse { steps.append(r) } }
        let on = (added + restarted + rearmed).sorted()
        steps += LESetExtendedAdvertisingEnable.commands(true, sets: on.map { h in
            .init(handle: h, maxExtendedAdvertisingEvents: limitEvents ? new[h]!.eventsPerTurn : 0)
        })
        return steps
    }

    static func legacySteps(from old: AdvertisingSetConfiguration?, to new: AdvertisingSetConfiguration?) -> [any HCICommand] {
        guard let new else { return old == nil ? [] : [LESetAdvertisingEnable(false)] }
        guard let old else {
            return [new.legacyAddress, new.legacyParameters, new.legacyData] + (new.legacyScanResponse.map { [$0] } ?? [])
                + [LESetAdvertisingEnable(true)]
        }
        if old == new { return [] }
        // Data and scan response data may change while enabled (§7.8.7, §7.8.8).
        let response: [any HCICommand] = old.scanResponse != new.scanResponse ? (new.legacyScanResponse.map { [$0] } ?? []) : []
        if old.parameters == new.parameters, old.address == new.address {
            return (old.data == new.data ? [] : [new.legacyData]) + response
        }
        var steps: [any HCICommand] = [LESetAdvertisingEnable(false)]
        if old.address != new.address { steps.append(new.legacyAddress) }
        if old.parameters != new.parameters { steps.append(new.legacyParameters) }
        if old.data != new.data { steps.append(new.legacyData) }
        steps += response
        steps.append(LESetAdvertisingEnable(true))
        return steps
    }

    /// Every command in the order a full cycle sends them.
    public var allCommands: [any HCICommand] { preamble + setup + slots.dropFirst().flatMap { $0 } + teardown }
}
