// SPDX-License-Identifier: GPL-2.0-or-later

/// Which advertiser of its adapter carries a beacon: an extended advertising set (by its handle)
/// or the legacy advertiser, and the beacon's turn when that advertiser rotates. What a plan
/// decides per beacon (``Placement/seat``), and what a site's agent reports for each beacon on air.
public struct AdvertiserSeat: Sendable, Hashable {
    public var mode: AdapterPlan.Mode
    /// The extended set's handle (0 for the legacy advertiser).
    public var advertiser: UInt8
    /// The beacon's turn (0 when the advertiser does not rotate) of `slots`.
    public var slot: Int
    public var slots: Int

    public init(mode: AdapterPlan.Mode, advertiser: UInt8, slot: Int = 0, slots: Int = 1) {
        self.mode = mode
        self.advertiser = advertiser
        self.slot = slot
        self.slots = slots
    }

    /// `legacy`, or `set 3`.
    public var advertiserText: String { mode == .legacy ? "legacy" : "set \(advertiser)" }

    /// `set 3`, `legacy`, or with the turn of a rotating advertiser `set 3 (2/4)`: how a map
    /// labels the advertiser that carries a beacon.
    public var text: String { advertiserText + (slots > 1 ? " (\(slot + 1)/\(slots))" : "") }
}

extension Placement {
    /// The advertiser that carries the beacon, and its turn.
    public var seat: AdvertiserSeat { AdvertiserSeat(mode: mode, advertiser: advertiser, slot: slot, slots: slots) }
}
