// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconConsole

/// The `time` of `beacon site` and `beacon agent` events: seconds since the command began, to
/// the millisecond, as every command's events (docs/JSON.md).
enum SiteEventTime {
    /// Set once, when first read: ``start()`` reads it as the command starts.
    private static let started = ContinuousClock.now

    static func start() { _ = started }

    static var now: Double { RunStatusBoard.round((ContinuousClock.now - started).seconds) }
}
