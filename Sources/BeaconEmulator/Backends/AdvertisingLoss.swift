// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Something outside beacon took (or may have taken) our advertising off the air: the kernel
/// disabled or cleared the controller's sets (a power cycle, its own scans), bluetoothd removed
/// every instance when it started, the adapter went away and came back. The adapter's driver
/// puts what should be on air back (``AdvertisingBackend/restore(_:after:)``) and reports it
/// (``EmulatorEvent/recovered(adapter:reason:beacons:after:afterAdapterBack:)``).
public struct AdvertisingLoss: Sendable, Equatable {
    /// What happened, in words (`the kernel sent LE Clear Advertising Sets`).
    public var reason: TermedText
    /// Everything on the controller is gone (HCI Reset, LE Clear Advertising Sets, the adapter
    /// back after Index Removed): every advertiser must be set up again from scratch.
    public var cleared: Bool
    /// How long to let the kernel finish what it is doing before the restore. A raw socket sees
    /// each command of a burst (a power-on sends dozens) and restoring in the middle of it would
    /// be undone by the next; a management event is final (the kernel has done what it reports),
    /// so the restore starts at once.
    public var settle: Duration
    /// The adapter has just become usable again (powered on, back after Index Added): the moment
    /// from which a restore can succeed, and from which ``EmulatorEvent/recovered(adapter:reason:beacons:after:afterAdapterBack:)`` counts
    /// beacon's own part of the recovery.
    public var adapterBack: Bool

    public init(reason: TermedText, cleared: Bool, settle: Duration = .zero, adapterBack: Bool = false) {
        self.reason = reason
        self.cleared = cleared
        self.settle = settle
        self.adapterBack = adapterBack
    }

    /// Two losses noticed before one restore: both reasons, cleared if either cleared.
    public func merged(with other: AdvertisingLoss) -> AdvertisingLoss {
        let reasons: TermedText = reason.description.contains(other.reason.description) ? reason : "\(reason); \(other.reason)"
        return AdvertisingLoss(reason: reasons, cleared: cleared || other.cleared, settle: other.settle, adapterBack: adapterBack || other.adapterBack)
    }
}
