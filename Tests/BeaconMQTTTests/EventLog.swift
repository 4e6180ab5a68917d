// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
import Synchronization

/// Collects a client's events as they come, so a test can wait for one (with a hang bound only)
/// and look at what came before.
final class EventLog: Sendable {
    private final class Store: Sendable {
        let events = Mutex<[MQTTEvent]>([])
    }
    private let store = Store()
    private let reader: Task<Void, Never>

    init(_ client: MQTTClient) {
        let store = store
        reader = Task { for await event in client.events { store.events.withLock { $0.append(event) } } }
    }

    deinit { reader.cancel() }

    /// Every event so far.
    var all: [MQTTEvent] { store.events.withLock { $0 } }

    /// How many events have come so far: pass it to ``next(after:timeout:where:)`` to wait for
    /// one that comes later.
    var mark: Int { store.events.withLock { $0.count } }

    /// The first event at index `after` or later that satisfies `condition`; nil when none came
    /// within `timeout` (a hang bound).
    func next(after index: Int = 0, timeout: Duration = .seconds(20), where condition: (MQTTEvent) -> Bool) async -> MQTTEvent? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = store.events.withLock { events in events.dropFirst(index).first(where: condition) }
            if let found { return found }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The first message on `topic` at index `after` or later.
    func message(on topic: String, after index: Int = 0) async -> MQTTMessage? {
        let event = await next(after: index) { if case .message(let m) = $0 { m.topic == topic } else { false } }
        if case .message(let m)? = event { return m }
        return nil
    }

    /// The messages received so far, in order.
    var messages: [MQTTMessage] { all.compactMap { if case .message(let m) = $0 { m } else { nil } } }
}
