// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Where the virtual controller reads the time: advertising events are computed from it, so a
/// test can inject ``ManualClock`` and get exact, instant results.
public protocol VirtualClock: Sendable {
    /// Time since an arbitrary origin that never goes backwards.
    var now: Duration { get }
}

/// The machine's monotonic clock, measured from when this clock was created.
public struct SystemVirtualClock: VirtualClock {
    let origin: ContinuousClock.Instant

    public init() { origin = ContinuousClock.now }

    public var now: Duration { ContinuousClock.now - origin }
}

/// A clock that moves only when told to: tests advance it and read the air log at once.
public final class ManualClock: VirtualClock {
    let value: Mutex<Duration>

    public init(_ start: Duration = .zero) { value = Mutex(start) }

    public var now: Duration { value.withLock { $0 } }

    /// Moves the clock forward (a negative amount is a programming error: time never goes back).
    public func advance(by amount: Duration) {
        precondition(amount >= .zero, "a clock never goes backwards")
        value.withLock { $0 += amount }
    }
}
