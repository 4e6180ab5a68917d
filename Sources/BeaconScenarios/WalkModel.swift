// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconProfiles
import BeaconRadio
import BeaconScanner
import Foundation

/// What each beacon of a fleet advertises so that a phone lying next to the emulator
/// experiences a walk through the fleet's room.
///
/// The phone hears every beacon at the same RSSI (it is next to the laptop): the calibration
/// ``rssiAtPhone``. A receiver estimates distance as `f(rssi, measuredPower)` (the scanner's
/// ``DistanceModel``), so for each beacon the model sets the payload's measured power to the
/// value for which `f(rssi, measuredPower)` is the walker's distance to that beacon's
/// `position`: the slant distance from the walker, held at ``receiverHeight``, to the beacon at
/// its mounting height (`position.z`), as the virtual air and positioning take it. Where the controller lets the host
/// choose the TX power (``TxPowerControl``), the TX power is lowered with distance as well, so
/// the RSSI itself drops as the walker goes away; the measured power then accounts for the
/// lower RSSI the phone should see. docs/TUTORIAL-positioning.md states the limits.
public struct WalkModel: Sendable {
    /// The beacons with a position (the others are carried unchanged).
    public var fleet: [BeaconProfile]
    public var route: WalkRoute
    public var distanceModel: DistanceModel
    /// The RSSI at which the phone hears the emulator at the reference TX power, dBm.
    public var rssiAtPhone: Double
    public var txPower: TxPowerControl?
    /// How high the walker holds the phone, metres (the fleet's `receiver_height`).
    public var receiverHeight: Double = 0

    /// Lowering the TX power with distance.
    public struct TxPowerControl: Hashable, Sendable {
        /// The TX power the calibration was made at (the highest the walk uses), dBm.
        public var reference: Int
        /// The lowest the controller takes, dBm.
        public var minimum: Int
        /// Only multiples of this many dB are used, so a slow walk does not restart the sets (a
        /// TX power change is a parameter change: disable, parameters, enable) at every update.
        public var step: Int
        /// The path-loss exponent of the attenuation: n in 10·n·log10(d).
        public var exponent: Double

        public init(reference: Int, minimum: Int, step: Int = 3, exponent: Double = 2) {
            precondition(step > 0 && minimum <= reference)
            self.reference = reference
            self.minimum = minimum
            self.step = step
            self.exponent = exponent
        }

        /// The TX power for `distance` metres: full power up to 1 m, then 10·n·log10(d) less,
        /// in whole steps, never below the minimum.
        public func power(forDistance distance: Double) -> Int {
            let attenuation = LogDistancePathLoss.loss(atDistance: max(distance, 1), exponent: exponent)
            let steps = Int((attenuation / Double(step)).rounded(.down))
            return max(minimum, reference - steps * step)
        }
    }

    public init(fleet: [BeaconProfile], route: WalkRoute, distanceModel: DistanceModel = .freeSpace, rssiAtPhone: Double = -45,
                txPower: TxPowerControl? = nil) {
        self.fleet = fleet
        self.route = route
        self.distanceModel = distanceModel
        self.rssiAtPhone = rssiAtPhone
        self.txPower = txPower
    }

    /// The beacons with a position: the ones the walk moves.
    public var positioned: [BeaconProfile] { fleet.filter { $0.position != nil } }

    /// What one beacon advertises when the walker is `distance` metres away.
    public struct Setting: Hashable, Sendable {
        public var distance: Double
        public var measuredPower: Int8
        /// nil: the profile's own (the controller's choice when it has none).
        public var txPower: Int8?
        /// The RSSI the phone should then see, dBm.
        public var expectedRSSI: Double
        /// What a receiver with the model will estimate from that RSSI, metres.
        public var estimatedDistance: Double
    }

    /// Distances below this are set as this: a walker standing on a beacon is 10 cm from it
    /// (the estimate of a distance of 0 is not defined).
    public static let minimumDistance = 0.1

    public func setting(forDistance trueDistance: Double) -> Setting {
        let distance = max(trueDistance, Self.minimumDistance)
        var rssi = rssiAtPhone
        var tx: Int8?
        if let control = txPower {
            let power = control.power(forDistance: distance)
            tx = Int8(power)
            rssi -= Double(control.reference - power)
        }
        // The range of measured powers always yields some distance for a negative RSSI; an
        // RSSI of 0 or above is refused by the command before it gets here.
        let power = distanceModel.measuredPower(forDistance: distance, rssi: rssi) ?? DistanceModel.measuredPowerRange.upperBound
        let estimate = distanceModel.distance(rssi: rssi, measuredPower: power) ?? .nan
        return Setting(distance: distance, measuredPower: power, txPower: tx, expectedRSSI: rssi, estimatedDistance: estimate)
    }

    /// Where the walker's phone is at `time` seconds: on the route, at ``receiverHeight``.
    public func walker(at time: Double) -> Point {
        let p = route.position(at: time)
        return Point(x: p.x, y: p.y, z: receiverHeight)
    }

    /// The walker's position and the fleet as it should be on air at `time` seconds.
    public func beacons(at time: Double) -> (position: Point, beacons: [BeaconProfile]) {
        let walker = walker(at: time)
        let beacons = fleet.map { profile -> BeaconProfile in
            guard let p = profile.position else { return profile }
            let s = setting(forDistance: walker.distance(to: p))
            var b = profile
            b.beacon.setPowerAt1m(s.measuredPower)
            if let tx = s.txPower { b.txPower = tx }
            return b
        }
        return (walker, beacons)
    }
}
