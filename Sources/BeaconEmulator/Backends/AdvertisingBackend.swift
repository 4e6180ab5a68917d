// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters

/// What is on air on one controller: per advertiser (an extended set's handle, or 0 for the one
/// legacy advertiser), the configuration it carries.
public typealias AdvertisingState = [UInt8: AdvertisingSetConfiguration]

/// A way of putting advertisers on air on one controller: the seam between the running fleet
/// (which decides *what* is on air and when) and the protocol that does it.
///
/// Implemented today by ``HCIAdvertisingBackend`` over an `HCIController`, in its two modes (LE
/// extended advertising sets, or the one legacy advertiser). A backend that
/// is not HCI (the kernel's management API, where advertisers are the kernel's instances) plugs in
/// here without the planner or the command line knowing.
///
/// The running fleet calls a backend from one serial loop only, never concurrently. Every failure
/// is an `AdapterError` (BeaconAdapters) (the protocol's own error, with its wording for the user).
public protocol AdvertisingBackend: Sendable {
    /// The adapter as the user named it, for messages.
    var adapter: AdapterName { get }
    /// What the controller can do, as probed.
    var capabilities: ControllerCapabilities { get }
    /// Checks that `state` can be put on air, before anything is sent; throws the reason.
    func validate(_ state: AdvertisingState) throws(AdapterError)
    /// Leaves the controller with nothing of ours on air (whatever an earlier, killed run left).
    func prepare() async throws(AdapterError)
    /// Takes the controller from `old` to `new`, sending only what differs.
    func transition(from old: AdvertisingState, to new: AdvertisingState) async throws(AdapterError) -> Transition
    /// Takes everything of ours off the air. `timeout` bounds each exchange (nil: the usual).
    func teardown(timeout: Duration?) async throws(AdapterError)
    /// After `loss`, puts back whatever of `state` is no longer on air; returns the advertisers
    /// it put back (none when nothing of ours was missing). Throws when the controller cannot
    /// take it yet (powered off, gone): the driver tries again. No default: a backend whose
    /// `restore` does not match this requirement exactly (its throws clause, say) would silently
    /// get a no-op one and its watchdog would never put anything back.
    func restore(_ state: AdvertisingState, after loss: AdvertisingLoss) async throws(AdapterError) -> [UInt8]

    /// Whether the controller ends turns: advertisers that carry a rotating beacon
    /// (``AdvertisingSetConfiguration/eventsPerTurn`` > 0) are enabled with that many events and
    /// stop by themselves after the last one, and ``selfStops`` counts those stops.
    var controllerTimesTurns: Bool { get }
    /// How many times each advertiser has stopped by itself so far. A stop the controller
    /// reported before the reply to a command is counted before that command returns.
    var selfStops: [UInt8: Int] { get }
    /// Calls `wake` (from any thread, briefly) whenever an advertiser stops by itself.
    func onSelfStop(_ wake: @escaping @Sendable () -> Void)
    /// ``transition(from:to:)`` knowing that the advertisers `stopped` have stopped by themselves
    /// since they were last enabled (so they need no disable).
    func transition(from old: AdvertisingState, to new: AdvertisingState, stopped: Set<UInt8>) async throws(AdapterError) -> Transition
}

/// A backend whose controller never ends turns by itself: the host times every turn.
extension AdvertisingBackend {
    public var controllerTimesTurns: Bool { false }
    public var selfStops: [UInt8: Int] { [:] }
    public func onSelfStop(_ wake: @escaping @Sendable () -> Void) {}
    public func transition(from old: AdvertisingState, to new: AdvertisingState, stopped: Set<UInt8>) async throws(AdapterError) -> Transition {
        try await transition(from: old, to: new)
    }
}

/// What one transition took.
public struct Transition: Sendable {
    /// The radio output power the controller selected, per advertiser whose parameters were set.
    public var selectedTxPower: [UInt8: Int8]
    /// How many commands (or requests) it sent.
    public var commands: Int
    /// ``AdvertisingBackend/selfStops`` just before the advertisers were enabled: a later stop
    /// belongs to this transition's turn (nil when the controller does not time turns).
    public var selfStopsAtEnable: [UInt8: Int]?

    public init(selectedTxPower: [UInt8: Int8] = [:], commands: Int, selfStopsAtEnable: [UInt8: Int]? = nil) {
        self.selectedTxPower = selectedTxPower
        self.commands = commands
        self.selfStopsAtEnable = selfStopsAtEnable
    }
}
