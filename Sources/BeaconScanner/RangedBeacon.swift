// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One beacon as a ranging update shows it (CoreLocation's `CLBeacon`).
public struct RangedBeacon: Hashable, Sendable {
    public var identity: BeaconKey
    /// The power at 1 m (dBm) of the latest report: iBeacon's measured power, AltBeacon's
    /// reference RSSI, Eddystone's TX power at 0 m less 41 dB.
    public var measuredPower: Int8
    /// The mean RSSI over the ranging window; `nil` when no report came in it (iOS shows 0).
    public var rssi: Double?
    /// Estimated distance in metres; `nil` when unknown (iOS shows −1).
    public var accuracy: Double?
    public var proximity: Proximity
    /// When the latest report (with or without an RSSI) came.
    public var lastSeen: ContinuousClock.Instant
    /// Reports with an RSSI per second over the ranging window.
    public var reportsPerSecond: Double
    /// The address of the latest report.
    public var address: BluetoothAddress

    public init(identity: BeaconKey, measuredPower: Int8, rssi: Double?, accuracy: Double?, proximity: Proximity,
                lastSeen: ContinuousClock.Instant, reportsPerSecond: Double, address: BluetoothAddress) {
        self.identity = identity
        self.measuredPower = measuredPower
        self.rssi = rssi
        self.accuracy = accuracy
        self.proximity = proximity
        self.lastSeen = lastSeen
        self.reportsPerSecond = reportsPerSecond
        self.address = address
    }

    /// Nearest first: known accuracies ascending, then the unknown ones; ties by identity so the
    /// order is stable from one update to the next.
    public static func nearestFirst(_ a: RangedBeacon, _ b: RangedBeacon) -> Bool {
        switch (a.accuracy, b.accuracy) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.identity < b.identity
        }
    }
}
