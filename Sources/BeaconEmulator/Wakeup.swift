// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Lets one serial loop sleep until it is told that something changed or a deadline passes,
/// whichever comes first: no polling, and nobody cancels the loop's task to get its attention.
///
/// A signal that arrives while the loop is busy is kept, so the next wait returns at once: a
/// wake-up is never lost.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
        var waiterID: UInt64 = 0
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the loop now, or at its next wait if it is not waiting.
    func signal() { resume(ifWaiter: nil) }

    /// Returns after the next signal (or at once if one is pending), or when `deadline` passes.
    func wait(until deadline: ContinuousClock.Instant?) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let id: UInt64? = state.withLock { s in
                if s.pending {
                    s.pending = false
                    return nil
                }
                s.waiterID &+= 1
                s.waiter = c
                return s.waiterID
            }
            guard let id else { c.resume(); return }
            guard let deadline else { return }
            let timer = Task { [weak self] in
                do { try await Task.sleep(until: deadline, tolerance: .milliseconds(1), clock: .continuous) } catch { return }
                self?.resume(ifWaiter: id)
            }
            state.withLock { s in
                if s.waiterID == id, s.waiter != nil { s.timer = timer } else { timer.cancel() }
            }
        }
    }

    /// Resumes the waiter (only waiter `id`, for a timer); with no waiter, a signal stays pending.
    private func resume(ifWaiter id: UInt64?) {
        let (waiter, timer): (CheckedContinuation<Void, Never>?, Task<Void, Never>?) = state.withLock { s in
            guard let w = s.waiter, id == nil || id == s.waiterID else {
                if id == nil { s.pending = true }
                return (nil, nil)
            }
            s.waiter = nil
            defer { s.timer = nil }
            return (w, s.timer)
        }
        timer?.cancel()
        waiter?.resume()
    }
}
