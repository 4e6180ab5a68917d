// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Synchronization

/// Messages waiting to be read, the newest per key: a newer one replaces one of its key not yet
/// taken (on a retained topic only the newest payload matters), so a backlog holds at most one
/// message per key, and the reading, which may be long (a desired fleet of 25,000 beacons, a
/// state of 10,000), happens away from the loop that takes the broker's events: a stop is
/// never queued behind it.
///
/// The reader is a serial dispatch queue of its own, not a task: a read is synchronous work of
/// up to seconds, and on the cooperative pool (one thread per core: two here) it would hold a
/// thread every other task of the process needs, the broker's loop and the stop among them.
/// Values are read one at a time, in the order their keys first waited.
final class LatestInbox<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var pending: [Key: Value] = [:]
        var finished = false
    }
    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let body: @Sendable (Key, Value) -> Void

    /// An inbox whose values `body` reads, on a queue labelled `label`.
    init(label: String, _ body: @escaping @Sendable (Key, Value) -> Void) {
        queue = DispatchQueue(label: label)
        self.body = body
    }

    /// Leaves `value` for the reader, in place of any of `key` it has not taken yet; nothing
    /// after ``finish()``.
    func post(_ value: Value, for key: Key) {
        // A key is on the queue once for each value waiting: only a key with none waiting goes.
        let first = state.withLock { s -> Bool in
            guard !s.finished else { return false }
            defer { s.pending[key] = value }
            return s.pending[key] == nil
        }
        guard first else { return }
        queue.async { [self] in
            guard let value = state.withLock({ $0.pending.removeValue(forKey: key) }) else { return }
            body(key, value)
        }
    }

    /// Drops what waits; a value being read is not waited for (its reader checks whether the run
    /// is stopping before it takes anything in).
    func finish() {
        state.withLock { s in
            s.finished = true
            s.pending = [:]
        }
    }
}
