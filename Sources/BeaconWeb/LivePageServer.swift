// SPDX-License-Identifier: GPL-2.0-or-later
import FlyingFox
import Foundation
import Synchronization

/// Serves the live page: `GET /` is the page (self-contained: nothing else is fetched) and
/// `GET /live` a WebSocket on which each viewer gets the newest ``LivePageSnapshot`` at once and
/// then every one published after it. Read-only: no route changes anything; any other path is 404.
public final class LivePageServer: Sendable {
    private let server: HTTPServer
    let viewers: LivePageViewers
    private let running: Task<Void, Never>
    /// The address it listens on (the real port when 0 was asked for).
    public let address: WebAddress

    /// The page's address, as the run prints it.
    public var url: String { "http://\(address)/" }

    /// Starts listening; returns once connections are accepted.
    public static func start(_ address: WebAddress) async throws(LivePageError) -> LivePageServer {
        let socketAddress: sockaddr_in
        do { socketAddress = try .inet(ip4: address.host, port: address.port) } catch {
            throw .cannotListen(address: "\(address)", reason: "\(error)")
        }
        let viewers = LivePageViewers()
        let server = HTTPServer(address: socketAddress, timeout: 5, logger: .disabled)
        let page = LivePageHTML.page()
        await server.appendRoute("GET /") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", .init("Cache-Control"): "no-store"], body: Data(page.utf8))
        }
        await server.appendRoute("GET /live", to: .webSocket(viewers))
        let failure = Mutex<String?>(nil)
        let running = Task {
            do { try await server.run() } catch { failure.withLock { $0 = "\(error)" } }
        }
        do {
            try await server.waitUntilListening(timeout: 5)
        } catch {
            running.cancel()
            let reason = failure.withLock { $0 } ?? "\(error)"
            throw .cannotListen(address: "\(address)", reason: reason)
        }
        var bound = address
        if case .ip4(_, let port)? = await server.listeningAddress { bound.port = port }
        return LivePageServer(server: server, viewers: viewers, running: running, address: bound)
    }

    private init(server: HTTPServer, viewers: LivePageViewers, running: Task<Void, Never>, address: WebAddress) {
        self.server = server
        self.viewers = viewers
        self.running = running
        self.address = address
    }

    /// Sends `snapshot` to every viewer (nothing when it equals the last one) and keeps it for
    /// viewers that connect later. `changedAt`: when the change it shows happened in the run (the
    /// `sent` time the page measures its latency from).
    public func publish(_ snapshot: LivePageSnapshot, changedAt: Date = Date()) {
        viewers.publish(snapshot, changedAt: changedAt)
    }

    /// Publishes `snapshot()` now, and again each time `changes` says the run changed, until the
    /// task is cancelled: event-driven, with no sampling period. A snapshot is taken as soon as
    /// the follower is woken; changes that come while it is taken make one more, not one each.
    /// An unchanged snapshot is not sent again.
    ///
    /// `refresh`: also takes a snapshot this often, for what the page shows that has no event
    /// (a run's elapsed time, a scenario's clock); nil: only on changes.
    public func follow(_ changes: LivePageChanges, refreshingEvery refresh: Duration? = nil,
                       _ snapshot: @escaping @Sendable () -> LivePageSnapshot) -> Task<Void, Never> {
        viewers.publish(snapshot(), changedAt: Date())
        return Task { [viewers] in
            await withTaskGroup(of: Void.self) { group in
                if let refresh {
                    group.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: refresh)
                            if !Task.isCancelled { changes.changed() }
                        }
                    }
                }
                group.addTask {
                    for await _ in changes.signals {
                        guard let changedAt = changes.take() else { continue }
                        viewers.publish(snapshot(), changedAt: changedAt)
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// How many viewers are connected now.
    public var viewerCount: Int { viewers.count }

    /// Closes every viewer's socket and stops listening, without waiting for requests in flight.
    public func stop() async {
        viewers.closeAll()
        await server.stop(timeout: 0)
        running.cancel()
    }
}

/// The viewers of one page and the newest snapshot.
final class LivePageViewers: WSMessageHandler, Sendable {
    private struct State {
        var latest: LivePageSnapshot?
        var viewers: [UInt64: AsyncStream<WSMessage>.Continuation] = [:]
        var next: UInt64 = 0
        var closed = false
        /// How many different snapshots were published.
        var published = 0
    }
    private let state = Mutex(State())

    var count: Int { state.withLock { $0.viewers.count } }
    /// How many different snapshots were published, and the newest.
    var published: (count: Int, latest: LivePageSnapshot?) { state.withLock { ($0.published, $0.latest) } }

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id: UInt64? = state.withLock { s in
            guard !s.closed else { return nil }
            defer { s.next += 1 }
            s.viewers[s.next] = continuation
            // The current state first: a viewer that (re)connects is up to date at once.
            if let latest = s.latest { continuation.yield(.text(Self.json(latest, withMap: true, withLayer: true))) }
            return s.next
        }
        guard let id else {
            continuation.yield(.close(.goingAway))
            continuation.finish()
            return stream
        }
        // The page sends nothing; its stream ends when it goes away, and so does its place here.
        Task { [weak self] in
            for await _ in client {}
            self?.remove(id)
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    private func remove(_ id: UInt64) {
        let gone = state.withLock { $0.viewers.removeValue(forKey: id) }
        gone?.finish()
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
            let text = Self.json(snapshot, withMap: withMap, withLayer: withLayer, sent: changedAt)
            for v in s.viewers.values { v.yield(.text(text)) }
        }
    }

    func closeAll() {
        let all = state.withLock { s in
            s.closed = true
            defer { s.viewers = [:] }
            return Array(s.viewers.values)
        }
        for v in all {
            v.yield(.close(.goingAway))
            v.finish()
        }
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
