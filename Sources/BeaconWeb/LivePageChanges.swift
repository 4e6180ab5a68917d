// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Synchronization

/// The run's changes as the live page hears of them: each event of the run (a beacon on or off
/// air, a new estimate, a radio online or offline) calls ``changed()``, and the server
/// (``LivePageServer/follow(_:refreshingEvery:_:)``) takes a snapshot at once and publishes it.
/// Changes that come while a snapshot is being taken are coalesced into the next one, so a burst
/// of 160 events makes a few messages, not 160; nothing waits for a sampling period.
///
/// ``changed()`` is cheap and never blocks on the page (a lock and at most one wake-up): the
/// run's event handlers call it inline. One server follows one `LivePageChanges`.
public final class LivePageChanges: Sendable {
    private let wakeUps: AsyncStream<Void>
    private let waker: AsyncStream<Void>.Continuation
    /// When the oldest change not yet taken up happened (nil: none waiting).
    private let pending = Mutex<Date?>(nil)

    public init() {
        // One wake-up at most is ever waiting: more would only repeat it.
        (wakeUps, waker) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Something the page shows has changed (call it after the state is updated).
    public func changed() {
        let first = pending.withLock { p in
            if p != nil { return false }
            p = Date()
            return true
        }
        if first { waker.yield() }
    }

    /// Takes the waiting changes up: when the oldest of them happened, or nil when there are none.
    func take() -> Date? {
        pending.withLock { p in
            defer { p = nil }
            return p
        }
    }

    /// Each time changes are waiting (ends when the task is cancelled or ``finish()`` is called).
    var signals: AsyncStream<Void> { wakeUps }

    /// No more changes: the follower ends.
    func finish() { waker.finish() }
}
