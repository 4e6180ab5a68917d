// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// How an Eddystone beacon interleaves TLM frames with its UID or URL frame (`tlm:` in a
/// profile): every ``period`` it sends TLM for ``duration``, then its own frame again, as real
/// Eddystone beacons do. Battery and temperature are fixed; the advertising count and the time
/// since boot advance (see `LiveTelemetry` in BeaconEmulator, which fills them in).
public struct TelemetryPlan: Hashable, Sendable {
    /// Time from the start of one TLM burst to the start of the next.
    public var period: Duration
    /// How long each TLM burst lasts (less than ``period``).
    public var duration: Duration
    /// Battery voltage in mV; 0 = not battery powered (Eddystone's "not supported").
    public var batteryMillivolts: UInt16
    /// °C in 8.8 fixed point, or BeaconCodec's `EddystoneTLM.temperatureNotSupported`.
    public var temperature: Int16

    public init(period: Duration = TelemetryPlan.defaultPeriod, duration: Duration = TelemetryPlan.defaultDuration,
                batteryMillivolts: UInt16 = TelemetryPlan.defaultBatteryMillivolts,
                temperature: Int16 = EddystoneTLM.temperatureNotSupported) {
        self.period = period
        self.duration = duration
        self.batteryMillivolts = batteryMillivolts
        self.temperature = temperature
    }

    /// What `tlm:` may say, kept here so the reader's checks and messages agree with the docs.
    public static let defaultPeriod: Duration = .seconds(10)
    public static let defaultDuration: Duration = .seconds(1)
    /// Seconds; a burst shorter than 0.1 s could fall between two advertising events.
    public static let periodRange: ClosedRange<Double> = 1...3600
    public static let durationRange: ClosedRange<Double> = 0.1...60
    /// A fresh CR2032 cell.
    public static let defaultBatteryMillivolts: UInt16 = 3000
    /// 8.8 fixed point holds −128 < t < 128; −128 itself means "not supported".
    public static let temperatureRange: ClosedRange<Double> = -127.99...127.99
}
