// SPDX-License-Identifier: GPL-2.0-or-later

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

/// SplitMix64: a tiny, fast, seedable generator. advDelay only needs to look random and repeat
/// exactly for a given seed; nothing here is security-relevant.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
