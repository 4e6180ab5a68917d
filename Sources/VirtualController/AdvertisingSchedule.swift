// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// When an enabled advertiser's next event starts: every advertising interval, plus the link
/// layer's advDelay when the configuration asks for it (Core Vol 6 Part B §4.4.2.2.1:
/// T_advEvent = advInterval + advDelay, advDelay pseudo-random in 0…10 ms).
struct AdvertisingSchedule {
    /// Start of the next advertising event.
    var nextEvent: Duration
    let interval: Duration
    /// `nil` when advDelay is off.
    var delay: SplitMix64?

    /// The first event starts when advertising is enabled (after one advDelay, if on).
    init(start: Duration, interval: Duration, delay: SplitMix64?) {
        self.interval = interval
        self.delay = delay
        nextEvent = start
        nextEvent += drawDelay()
    }

    /// Moves to the following event.
    mutating func advance() {
        nextEvent += interval + drawDelay()
    }

    private mutating func drawDelay() -> Duration {
        guard var generator = delay else { return .zero }
        // 0…10 ms in whole microseconds.
        let micros = generator.next() % 10_001
        delay = generator
        return .microseconds(Int64(micros))
    }
}
