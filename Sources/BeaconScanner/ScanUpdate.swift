// SPDX-License-Identifier: GPL-2.0-or-later

/// What a scan produces, in order.
public enum ScanUpdate: Sendable {
    /// Scanning is on, with this command family.
    case started(ScanMode)
    /// One iBeacon report (of a beacon in a region; every iBeacon without regions).
    case report(BeaconSighting)
    /// A ranging update: every beacon heard recently, nearest first (about once a second).
    case ranging([RangedBeacon], at: ContinuousClock.Instant)
    /// A beacon (and maybe its region) entered or exited.
    case region(RegionEvent)
    /// Scanning is off again.
    case stopped
}
