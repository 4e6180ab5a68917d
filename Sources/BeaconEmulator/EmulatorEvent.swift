// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconProfiles
import HCI

/// What a running fleet reports, for the live table, the log lines and `--json`; each event
/// has a text form (``EmulatorEvent/termedText`` for a front end to name its terms,
/// ``EmulatorEvent/description`` in words, and ``EmulatorEvent/isNews`` for whether a log shows
/// it). Messages and reasons are `TermedText`: the advice in a controller's error names actions
/// (a stop, an examination) that each front end names its own way.
public enum EmulatorEvent: Sendable {
    /// A beacon went on air (or came back in its turn).
    case onAir(beacon: BeaconName, adapter: AdapterName, advertiser: UInt8, address: BluetoothAddress, selectedTxPower: Int8?)
    /// A beacon left the air (its turn ended, an update removed it, or the run is stopping).
    case offAir(beacon: BeaconName, adapter: AdapterName, advertiser: UInt8)
    /// A rotation slot was carried out: how many commands it took and how late it started.
    case slot(adapter: AdapterName, index: Int, commands: Int, lateness: Duration)
    /// Who ends the rotation's turns on this adapter from now on: the controller (it stopped
    /// every set of a turn after its events, LE Advertising Set Terminated) or, at the start and
    /// after a controller missed its backstop, the host's timer.
    case turnTiming(adapter: AdapterName, byController: Bool)
    /// Update `generation` (see ``RunningFleet/update(_:)``) is on air on this adapter; every
    /// earlier generation it replaced is settled with it.
    case applied(generation: Int, adapter: AdapterName)
    /// Update `generation` was not applied on this adapter (for example an interval the
    /// controller refuses); what was on air before stays on air.
    case updateFailed(generation: Int, adapter: AdapterName, message: TermedText)
    /// The watchdog put beacons back on air after something outside beacon took them off
    /// (`reason`: the kernel cleared the sets in a power cycle, bluetoothd removed every instance
    /// when it restarted, …); `after`: from noticing the loss to the beacons being back, which
    /// includes any time the adapter was off or gone; `afterAdapterBack`: from the adapter being
    /// usable again (powered on, back) to the beacons being back, beacon's own part (nil when the
    /// adapter never went away).
    case recovered(adapter: AdapterName, reason: TermedText, beacons: [BeaconName], after: Duration, afterAdapterBack: Duration?)
    /// Something failed on an adapter; the fleet stops (see ``RunningFleet/outcome()``).
    case error(adapter: AdapterName, message: TermedText)
    /// What each rotating beacon really got on air, measured from the controller's answers
    /// (the running fleet's coverage meter), against the plan: once on the way when a beacon first misses the plan,
    /// and at the end (``CoverageReport/final``), before the adapter's `stopped`.
    indirect case coverage(adapter: AdapterName, CoverageReport)
    /// The controller answered the run's commands in `commandTime` each, clearly slower (or
    /// faster) than the plan assumed: the turns were planned again with it (`plan`: the new plan, its figures the
    /// model's with the measured time), on the same advertisers, the rotation going on where it was:
    /// its turns (`slotDuration`), the plan's longest silence and whether it meets the goal. (Not
    /// the whole plan: ``RunningFleet/currentPlan`` has it, and ``RunningFleet/events`` keeps
    /// many events.)
    case replanned(adapter: AdapterName, commandTime: Duration, slotDuration: Duration, longestSilence: Duration, goal: Duration)
    /// The adapter's teardown is done: clean, or with what may still be on air.
    case stopped(adapter: AdapterName, teardown: Teardown)
}

/// How a teardown ended.
public enum Teardown: Sendable, Equatable {
    /// Advertising off and our advertisers removed: nothing of ours is on air.
    case clean
    /// A teardown command failed: these beacons may still be on air.
    case incomplete(mayBeOnAir: [BeaconName], reason: TermedText)
    /// Nothing had been sent to the controller, so there was nothing to undo.
    case nothingSent

    public var isClean: Bool {
        if case .incomplete = self { return false }
        return true
    }
}
