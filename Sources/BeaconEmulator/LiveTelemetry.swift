// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import HCI

/// What an Eddystone beacon with `tlm:` (BeaconProfiles' `TelemetryPlan`) has on air at a given time since the
/// fleet started: its UID or URL frame, or during a TLM burst (burst k ≥ 1 covers
/// [k × period, k × period + duration)) a TLM frame from the same address whose counters are those
/// of a beacon that booted when the fleet started: time since boot, and one advertising PDU per
/// advertising event at the beacon's interval (the controller's 0–10 ms advDelay makes the true
/// count a little lower; a receiver only needs it to grow). Battery and temperature are fixed.
///
/// Pure: ``RunningFleet`` asks it what to put on air and when that next changes.
public enum LiveTelemetry {
    /// The beacons as on air `elapsed` after the start: TLM frames for those in a burst.
    public static func frames(_ beacons: [BeaconProfile], at elapsed: Duration) -> [BeaconProfile] {
        beacons.map { frame($0, at: elapsed) }
    }

    /// One beacon as on air at `elapsed`.
    public static func frame(_ beacon: BeaconProfile, at elapsed: Duration) -> BeaconProfile {
        guard let plan = beacon.telemetry, isBurst(plan, at: elapsed) else { return beacon }
        var on = beacon
        on.beacon = .eddystoneTLM(telemetry(beacon, plan: plan, at: elapsed))
        on.rawData = nil  // a TLM burst sends the TLM frame itself
        return on
    }

    /// The TLM frame `beacon` sends at `elapsed`.
    public static func telemetry(_ beacon: BeaconProfile, plan: TelemetryPlan, at elapsed: Duration) -> EddystoneTLM {
        let interval = AdvertisingInterval(milliseconds: beacon.intervalMilliseconds).duration
        let events = elapsed / interval  // Duration ÷ Duration: how many intervals fit
        let tenths = elapsed / .milliseconds(100)
        return EddystoneTLM(batteryMillivolts: plan.batteryMillivolts, temperature: plan.temperature,
                            advertisingCount: UInt32(clamping: Int(events.rounded(.down))),
                            uptimeTenths: UInt32(clamping: Int(tenths.rounded(.down))))
    }

    /// Whether a burst is on at `elapsed`.
    public static func isBurst(_ plan: TelemetryPlan, at elapsed: Duration) -> Bool {
        guard elapsed >= plan.period else { return false }
        let k = Int((elapsed / plan.period).rounded(.down))
        return elapsed - plan.period * k < plan.duration
    }

    /// The first time after `elapsed` at which any beacon starts or ends a burst; `nil` when
    /// none has `tlm:`.
    public static func nextChange(_ beacons: [BeaconProfile], after elapsed: Duration) -> Duration? {
        var next: Duration? = nil
        var seen: Set<TelemetryPlan> = []
        for plan in beacons.compactMap(\.telemetry) where seen.insert(plan).inserted {
            let k = max(1, Int((elapsed / plan.period).rounded(.down)))
            let candidates = [plan.period * k, plan.period * k + plan.duration, plan.period * (k + 1)]
            if let c = candidates.first(where: { $0 > elapsed }), c < next ?? .seconds(Int64.max) { next = c }
        }
        return next
    }
}
