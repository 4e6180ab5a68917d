// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import NIOCore
import Synchronization

/// The viewers of one page and the newest snapshot. A viewer is what sends it a message and
/// what closes it (a WebSocket, ``LiveSocketHandler``); each message is encoded once for all.
/// Messages are handed to viewers under the lock, so every viewer gets them in the order they
/// were published.
final class LivePageViewers: Sendable {
    struct Viewer: Sendable {
        var send: @Sendable (ByteBuffer) -> Void
        var close: @Sendable () -> Void
    }
    private struct State {
        var latest: LivePageSnapshot?
        var viewers: [UInt64: Viewer] = [:]
        var next: UInt64 = 0
        var closed = false
        /// How many different snapshots were published.
        var published = 0
    }
    private let state = Mutex(State())

    var count: Int { state.withLock { $0.viewers.count } }
    /// How many different snapshots were published, and the newest.
    var published: (count: Int, latest: LivePageSnapshot?) { state.withLock { ($0.published, $0.latest) } }

    /// Adds a viewer and sends it the current state first (a viewer that reconnects is up to
    /// date at once); nil once the page is closed.
    func add(send: @escaping @Sendable (ByteBuffer) -> Void, close: @escaping @Sendable () -> Void) -> UInt64? {
        state.withLock { s in
            guard !s.closed else { return nil }
            defer { s.next += 1 }
            s.viewers[s.next] = Viewer(send: send, close: close)
            if let latest = s.latest { send(Self.buffer(latest, withMap: true, withLayer: true)) }
            return s.next
        }
    }

    func remove(_ id: UInt64) {
        _ = state.withLock { $0.viewers.removeValue(forKey: id) }
    }

    func publish(_ snapshot: LivePageSnapshot, changedAt: Date) {
        state.withLock { s in
            guard s.latest != snapshot else { return }
            // The map is sent again only when it changed (the scene: walls, beacons); states
            // travel as attributes, the moving layer (estimate, trail) as its own few elements.
            let withMap = s.latest?.svg != snapshot.svg
            let withLayer = s.latest?.layer != snapshot.layer
            s.latest = snapshot
            s.published += 1
            guard !s.viewers.isEmpty else { return }
            let message = Self.buffer(snapshot, withMap: withMap, withLayer: withLayer, sent: changedAt)
            for v in s.viewers.values { v.send(message) }
        }
    }

    func closeAll() {
        let all = state.withLock { s in
            s.closed = true
            defer { s.viewers = [:] }
            return Array(s.viewers.values)
        }
        for v in all { v.close() }
    }

    static func buffer(_ snapshot: LivePageSnapshot, withMap: Bool, withLayer: Bool, sent: Date = Date()) -> ByteBuffer {
        ByteBuffer(string: json(snapshot, withMap: withMap, withLayer: withLayer, sent: sent))
    }

    /// The snapshot as the page reads it; without the map (`hasMap` false) `svg` is empty and
    /// the page keeps the one shown, likewise `layer` without `hasLayer`. `sent`: when the change
    /// happened in the run (Unix time, milliseconds), which the page subtracts from its clock
    /// once the DOM is changed (scripts/web-bench's latency, event to DOM).
    static func json(_ snapshot: LivePageSnapshot, withMap: Bool, withLayer: Bool, sent: Date = Date()) -> String {
        var shown = snapshot
        if !withMap { shown.svg = "" }
        if !withLayer { shown.layer = "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let milliseconds = (sent.timeIntervalSince1970 * 10_000).rounded() / 10
        let data = (try? encoder.encode(Message(snapshot: shown, hasMap: withMap, hasLayer: withLayer, sent: milliseconds))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private struct Message: Encodable {
        var snapshot: LivePageSnapshot
        var hasMap: Bool
        var hasLayer: Bool
        var sent: Double
    }
}
