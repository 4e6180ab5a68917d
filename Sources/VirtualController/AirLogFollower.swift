// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Follows what a virtual controller puts on the air while a run goes on: hands each new air
/// log entry to `write` once, in order, from when the follower was made.
///
/// ``following(every:)`` reads the log now and then (the controller keeps it; nothing is lost
/// between reads), and ``drain()`` reads what is new at once, for the last entries before a
/// teardown is reported.
public final class AirLogFollower: Sendable {
    public let controller: VirtualController
    private let write: @Sendable ([AirLogEntry]) -> Void
    /// The sequence number of the next entry to hand on.
    private let next: Mutex<UInt64>

    public init(controller: VirtualController, write: @escaping @Sendable ([AirLogEntry]) -> Void) {
        self.controller = controller
        self.write = write
        next = Mutex(controller.airLogEnd)
    }

    /// Hands on the entries logged since the last call.
    public func drain() {
        // Under the lock, so two drains (the reader and a final one) never hand an entry on twice.
        next.withLock { next in
            let entries = controller.airLog(since: next)
            guard let last = entries.last else { return }
            write(entries)
            next = last.sequence + 1
        }
    }

    /// Drains every `period` until cancelled.
    public func following(every period: Duration = .milliseconds(100)) -> Task<Void, Never> {
        Task { [self] in
            while !Task.isCancelled {
                drain()
                try? await Task.sleep(for: period)
            }
        }
    }
}
