// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconPositioning
import BeaconScanner
import VirtualController
import BeaconRadio

/// Seeded walks through a fleet heard through an ``AirChannel`` by a ``PhoneScanning`` phone,
/// located with a ``PositioningMethod``: the error distribution behind BENCHMARKS.md's
/// positioning table (`beacon locate FLEET --simulate random --walks N --air … --as … --method …`).
///
/// Each walk goes through `waypoints` points, the first drawn uniformly in the fleet's bounding
/// box, each next within `leg` metres (seed `seed + walk`), at `speed`; every beacon advertises every `advertisingInterval` at its own
/// phase; each advertisement is heard through the channel (its collisions judged event by event
/// against every other beacon's); `raw` feeds every packet heard to the locator, `ios` and `android` feed
/// each beacon's smoothed RSSI at every ranging update, as an app on that phone gets it. The
/// locator inverts the channel's own path-loss exponent (a site calibrated for n), with the
/// strongest `maximumBeacons` of each window.
public struct PositioningBenchmark: Sendable {
    public var anchors: [BeaconAnchor]
    public var channel: AirChannel
    public var phone: PhoneScanning
    public var method: PositioningMethod
    public var window: Double = 1
    public var speed: Double = 1
    public var waypoints: Int = 6
    /// The largest step between waypoints along each axis, metres.
    public var leg: Double = 5
    public var advertisingInterval: Double = 0.1
    public var maximumBeacons: Int = 8
    /// Walk this path instead of random ones.
    public var path: WalkPath?
    /// The receiver's height, metres (the fleet's `receiver_height`): the walks are on that
    /// plane, heard over slant distances to the beacons at their heights.
    public var receiverHeight: Double = 0

    public init(anchors: [BeaconAnchor], channel: AirChannel, phone: PhoneScanning, method: PositioningMethod) {
        self.anchors = anchors
        self.channel = channel
        self.phone = phone
        self.method = method
    }

    /// The errors of every fix of `walks` walks, pooled.
    public func run(walks: Int, seed: UInt64) -> LocationErrorSummary? {
        LocationErrorSummary(errors: errors(walks: walks, seed: seed, methods: [method])[0])
    }

    /// The error of every fix of `walks` walks, one list per method of `methods` (in walk
    /// order). The walks and the air's draws do not depend on the method, so each walk is
    /// heard once and located with every method: the same figures as one ``run(walks:seed:)``
    /// per method.
    public func errors(walks: Int, seed: UInt64, methods: [PositioningMethod]) -> [[Double]] {
        var errors = Array(repeating: [Double](), count: methods.count)
        for walk in 0..<walks {
            let simulator = WalkSimulator(anchors: anchors, path: path ?? randomPath(seed: seed &+ UInt64(walk)), noise: 0, speed: speed,
                                          advertisingInterval: advertisingInterval, seed: seed &+ UInt64(walk), receiverHeight: receiverHeight)
            var channel = self.channel
            channel.seed = seed &+ UInt64(walk)
            let samples = phoneSamples(heard(simulator, through: channel))
            let model = PathLossModel(exponent: channel.exponent)
            for (index, method) in methods.enumerated() {
                for fix in WindowedLocator.fixes(samples, anchors: anchors, model: model, window: window, method: method,
                                                 maximumBeacons: maximumBeacons, receiverHeight: receiverHeight) {
                    errors[index].append(fix.estimate.position.distance(to: simulator.truth(at: fix.time)))
                }
            }
        }
        return errors
    }

    /// A walk from a random point of the fleet's bounding box, each next waypoint at most
    /// `leg` metres away along each axis (and inside the box): short walks, so a 200 m
    /// concourse costs no more per walk than a room.
    func randomPath(seed: UInt64) -> WalkPath {
        var random = SplitMix64(seed: seed)
        let xs = anchors.map(\.position.x), ys = anchors.map(\.position.y)
        let (x0, x1, y0, y1) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
        var point = Point(x: x0 + (x1 - x0) * random.nextUnit(), y: y0 + (y1 - y0) * random.nextUnit())
        var points = [point]
        for _ in 1..<max(2, waypoints) {
            point = Point(x: min(max(point.x + leg * (2 * random.nextUnit() - 1), x0), x1),
                               y: min(max(point.y + leg * (2 * random.nextUnit() - 1), y0), y1))
            points.append(point)
        }
        return WalkPath(waypoints: points)
    }

    /// The simulator's noiseless advertisements as the channel lets them through. With
    /// collisions, each event is judged against the others by `AdvertisingCollisions` (BeaconRadio); the
    /// simulator's beacons keep fixed phases, so each event is moved by its own 0–10 ms advDelay
    /// (drawn per event, not accumulated, so the walk's timing stays the simulator's) and pairs
    /// of beacons do not collide for ever or never.
    func heard(_ simulator: WalkSimulator, through channel: AirChannel) -> [RSSISample] {
        var receiver = AirReceiver(channel: channel)
        var delays = SplitMix64(seed: channel.seed ^ 0xAD_DE1A)
        var collisions = AdvertisingCollisions<Int>()  // indices into `sent`
        let airtime = AirChannel.airtime(dataLength: 30)  // an iBeacon's AdvData
        // The first anchor of each key gives the position and power (a fleet's keys are unique).
        var firstOfKey: [BeaconKey: BeaconAnchor] = [:]
        for anchor in anchors where firstOfKey[anchor.key] == nil { firstOfKey[anchor.key] = anchor }
        let located = simulator.anchors.map { firstOfKey[$0.key] }
        var sent: [RSSISample] = []
        var out: [RSSISample] = []
        for (time, index) in simulator.schedule() {
            guard let anchor = located[index] else { continue }
            let truth = simulator.truth(at: time)
            let d = max(truth.distance(to: anchor.position), AirPathLoss.shortestDistance)
            let mean = LogDistancePathLoss.rssi(atDistance: d, powerAt1m: Double(anchor.measuredPower), exponent: channel.exponent)
                - channel.wallAttenuation(from: anchor.position, to: truth)
            let (power, loss) = receiver.draw(mean: mean)
            let own = simulator.anchors[index]
            let heard = RSSISample(time: time, key: own.key, rssi: Double(AirPathLoss.clamp(power)), measuredPower: own.measuredPower)
            if channel.collisions {
                collisions.add(sent.count, start: time + 0.010 * delays.nextUnit(), airtime: airtime, power: power, audible: loss == nil)
                sent.append(heard)
            } else if loss == nil {
                out.append(heard)
            }
        }
        guard channel.collisions else { return out }
        return collisions.settleAll().filter { !$0.collided }.map { sent[$0.packet] }.sorted { $0.time < $1.time }
    }

    /// What an app on the phone gets: every packet (raw), or each beacon's smoothed RSSI at
    /// every ranging update while the phone still lists it.
    func phoneSamples(_ heard: [RSSISample]) -> [RSSISample] {
        // An iPhone ranges iBeacons only (``PhoneScanning/formats``).
        let packets = phone.formats.map { formats in heard.filter { formats.contains($0.key.format) } } ?? heard
        guard phone.profile != .raw, let last = packets.last?.time else { return packets }
        let origin = ContinuousClock.now
        func instant(_ t: Double) -> ContinuousClock.Instant { origin + .nanoseconds(Int64((t * 1e9).rounded())) }
        var windows: [BeaconKey: (window: RSSIWindow, lastSeen: Double, power: Int8?)] = [:]
        var out: [RSSISample] = []
        var next = 0
        let step = phone.updateInterval.seconds
        var tick = step
        while tick <= last + step {
            while next < packets.count, packets[next].time <= tick {
                let p = packets[next]
                // In place: a copy out of the dictionary would copy the window's samples (20 s of
                // them for a phone that keeps that much) at every packet.
                func record(_ entry: inout (window: RSSIWindow, lastSeen: Double, power: Int8?)) {
                    entry.window.add(Int8(clamping: Int(p.rssi)), at: instant(p.time))
                    entry.lastSeen = p.time
                }
                record(&windows[p.key, default: (RSSIWindow(length: phone.ranging.history), p.time, p.measuredPower)])
                next += 1
            }
            for (key, entry) in windows.sorted(by: { $0.key < $1.key }) where phone.ranging.lists(silentFor: .seconds(tick - entry.lastSeen)) {
                if let rssi = phone.ranging.smoothed(entry.window, at: instant(tick)).rssi {
                    out.append(RSSISample(time: tick, key: key, rssi: rssi, measuredPower: entry.power))
                }
            }
            tick += step
        }
        return out
    }
}
