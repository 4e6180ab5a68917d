// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import HCI

/// What a scan heard, as beacons a fleet profile can declare (`scan --save`): every beacon with
/// an identity, of every format, with its advertised frame, its mean RSSI and the addresses it
/// came from; Eddystone TLM frames are matched to the UID or URL frame of the same address.
public struct HeardFleet: Sendable {
    struct Heard: Sendable {
        var beacon: AnyBeacon
        var rssiSum = 0.0
        var rssiCount = 0
        var addresses: Set<BluetoothAddress> = []
        /// Whether every report came from a random address.
        var alwaysRandom = true
        /// When its last advertising event was heard (reports of one event, on its three
        /// channels, come within ``sameEvent`` of each other), the shortest gap between two
        /// events and how many gaps were heard.
        var lastEvent: ContinuousClock.Instant?
        var shortestGap: Duration?
        var gaps = 0
    }

    /// Reports of one beacon closer than this are one advertising event (its channels): no
    /// advertiser's events come closer, 20 ms being the shortest interval.
    static let sameEvent: Duration = .milliseconds(15)
    /// Gaps a beacon's interval is read from only once there are this many.
    static let gapsForInterval = 5

    private var heard: [BeaconKey: Heard] = [:]
    /// The latest TLM frame per address.
    private var telemetry: [BluetoothAddress: EddystoneTLM] = [:]
    /// When each address's TLM bursts began and how long they lasted: a burst begins with a TLM
    /// frame after the beacon's own frame and ends with its own frame again.
    private var bursts: [BluetoothAddress: Bursts] = [:]

    struct Bursts: Sendable {
        var starts: [ContinuousClock.Instant] = []
        var lengths: [Duration] = []
        var current: ContinuousClock.Instant?
        /// Only this many of each are kept (the median of the latest).
        static let kept = 64

        mutating func tlm(at t: ContinuousClock.Instant) {
            guard current == nil else { return }
            current = t
            starts.append(t)
            if starts.count > Self.kept { starts.removeFirst() }
        }

        mutating func ownFrame(at t: ContinuousClock.Instant) {
            guard let start = current else { return }
            current = nil
            lengths.append(t - start)
            if lengths.count > Self.kept { lengths.removeFirst() }
        }

        /// The period and duration heard: medians of the gaps between burst starts and of the
        /// bursts' lengths, to a tenth of a second within what `tlm:` allows (nil before two
        /// whole bursts).
        var timing: (period: Duration, duration: Duration)? {
            guard starts.count >= 2, !lengths.isEmpty else { return nil }
            let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }.sorted()
            let lengths = self.lengths.sorted()
            func tenths(_ d: Duration, _ range: ClosedRange<Double>) -> Duration {
                .milliseconds(Int64((min(max((d.seconds * 10).rounded() / 10, range.lowerBound), range.upperBound) * 1000).rounded()))
            }
            let period = tenths(gaps[gaps.count / 2], TelemetryPlan.periodRange)
            let duration = tenths(lengths[lengths.count / 2], TelemetryPlan.durationRange)
            guard duration < period else { return nil }
            return (period, duration)
        }
    }

    public init() {}

    /// How many beacons (with an identity) were heard.
    public var count: Int { heard.count }

    public mutating func record(_ sighting: BeaconSighting) {
        guard let key = sighting.identity else {
            if case .eddystoneTLM(let tlm) = sighting.beacon {
                telemetry[sighting.address] = tlm
                bursts[sighting.address, default: Bursts()].tlm(at: sighting.time)
            }
            return
        }
        bursts[sighting.address]?.ownFrame(at: sighting.time)
        var h = heard[key] ?? Heard(beacon: sighting.beacon)
        h.beacon = sighting.beacon  // the latest calibration wins
        if let rssi = sighting.rssi {
            h.rssiSum += Double(rssi)
            h.rssiCount += 1
        }
        h.addresses.insert(sighting.address)
        if sighting.addressType != .random { h.alwaysRandom = false }
        if let last = h.lastEvent {
            let gap = sighting.time - last
            if gap >= Self.sameEvent {
                h.shortestGap = min(h.shortestGap ?? gap, gap)
                h.gaps += 1
                h.lastEvent = sighting.time
            }
        } else {
            h.lastEvent = sighting.time
        }
        heard[key] = h
    }

    /// The beacons heard, in identity order, named `prefix-1`, `prefix-2`, ….
    ///
    /// - Parameters:
    ///   - namePrefix: the names' prefix (`prefix` above).
    ///   - powerFromRSSI: the scan was made 1 m from the beacons (`--at-1m`): each
    ///     beacon's power at 1 m becomes its mean RSSI (rounded; Eddystone's TX power at 0 m that
    ///     plus 41 dB), rather than what it advertised. Beacons heard without an RSSI keep theirs.
    /// - Returns: profiles with the advertised frame; the address when the beacon used one
    ///   random static address throughout (and no beacon before it in the list used it: a device
    ///   sending two frames gets it once), otherwise derived; for an Eddystone beacon whose
    ///   address also sent TLM, a `tlm:` with that frame's battery and temperature, and the
    ///   bursts' period and duration as heard (from two whole bursts on).
    public func profiles(namePrefix: String, powerFromRSSI: Bool) -> [BeaconProfile] {
        var used: Set<BluetoothAddress> = []
        return heard.sorted { $0.key < $1.key }.enumerated().map { index, entry in
            let h = entry.value
            var beacon = h.beacon
            if powerFromRSSI, h.rssiCount > 0 {
                beacon = Self.calibrated(beacon, meanRSSI: h.rssiSum / Double(h.rssiCount))
            }
            var address: BluetoothAddress? = nil
            if h.addresses.count == 1, let only = h.addresses.first, h.alwaysRandom, only.isStaticRandom, used.insert(only).inserted {
                address = only
            }
            var plan: TelemetryPlan? = nil
            if beacon.format == .eddystoneUID || beacon.format == .eddystoneURL,
               let only = h.addresses.first, h.addresses.count == 1, let tlm = telemetry[only] {
                plan = TelemetryPlan(batteryMillivolts: tlm.batteryMillivolts, temperature: tlm.temperature)
                if let timing = bursts[only]?.timing {
                    plan?.period = timing.period
                    plan?.duration = timing.duration
                }
            }
            var profile = BeaconProfile(name: "\(namePrefix)-\(index + 1)", beacon: beacon, telemetry: plan, address: address)
            if let interval = h.interval { profile.intervalMilliseconds = interval.milliseconds }
            return profile
        }
    }

    /// `beacon` with its power at 1 m set to `meanRSSI` (rounded, within the format's range:
    /// an Eddystone frame's 0 m power, 41 dB above, must stay within the specification's).
    static func calibrated(_ beacon: AnyBeacon, meanRSSI: Double) -> AnyBeacon {
        var atOneMetre = Int(meanRSSI.rounded())
        if beacon.format == .eddystoneUID || beacon.format == .eddystoneURL {
            let loss = EddystoneFormat.lossOverFirstMetre, range = EddystoneFormat.txPowerRange
            atOneMetre = min(max(atOneMetre, range.lowerBound - loss), range.upperBound - loss)
        }
        var calibrated = beacon
        calibrated.setPowerAt1m(Int8(clamping: atOneMetre))
        return calibrated
    }
}

extension HeardFleet.Heard {
    /// The interval it advertised at, as heard: its shortest gap between two events (each event
    /// is an interval and 0–10 ms of advDelay after the one before, so the shortest of a few is
    /// the interval and a fraction of a millisecond), down to whole 0.625 ms units; nil with too
    /// few gaps heard, or one outside 20 ms–10.24 s (a beacon heard once per rotation).
    var interval: AdvertisingInterval? {
        guard gaps >= HeardFleet.gapsForInterval, let shortest = shortestGap else { return nil }
        let interval = AdvertisingInterval(atMost: shortest)
        guard interval >= AdvertisingInterval(milliseconds: 20), interval <= AdvertisingInterval(milliseconds: 10_240) else { return nil }
        return interval
    }
}
