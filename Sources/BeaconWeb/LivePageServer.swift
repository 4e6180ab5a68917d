// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// Serves the live page: `GET /` is the page (self-contained: nothing else is fetched) and
/// `GET /live` a WebSocket on which each viewer gets the newest ``LivePageSnapshot`` at once and
/// then every one published after it. Read-only: no route changes anything; any other path is 404.
///
/// Built on SwiftNIO (one event-loop thread of its own); what a peer sends is bounded before it
/// is read: a request's lines and head (`RequestHeadLimit`: 414, 431), a viewer's frames
/// (1009), the connections held at once (``connectionLimit``: further ones are closed as they
/// are accepted), a connection that sends nothing (closed after 10 s). `Host` and `Origin` are
/// checked (``PageHosts``). An accept that fails (no descriptor left) is retried each second,
/// and said once through `problems` until one succeeds again.
public final class LivePageServer: Sendable {
    /// How many connections (page loads and viewers) are held at once.
    public static let connectionLimit = 128

    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel
    let viewers: LivePageViewers
    private let connections: PageConnections
    /// The address it listens on (the real port when 0 was asked for).
    public let address: WebAddress

    /// The page's address, as the run prints it.
    public var url: String { "http://\(address)/" }

    /// Starts listening on `address`; returns once connections are accepted. `names`: further
    /// host names the page may be reached by (``PageHosts``). `problems`: told, once per
    /// episode, when connections cannot be accepted (any thread).
    public static func start(_ address: WebAddress, names: [String] = [],
                             problems: @escaping @Sendable (String) -> Void = { _ in }) async throws(LivePageError) -> LivePageServer {
        try await start(address, names: names, idleLimit: RequestHeadLimit.idleLimit, problems: problems)
    }

    /// As the public `start`, with how long a connection may be quiet before its request is
    /// complete (tests that hold connections open on purpose).
    static func start(_ address: WebAddress, names: [String] = [], idleLimit: TimeAmount,
                      problems: @escaping @Sendable (String) -> Void = { _ in }) async throws(LivePageError) -> LivePageServer {
        let viewers = LivePageViewers()
        let connections = PageConnections(hosts: PageHosts(address: address, names: names))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let page = ByteBuffer(string: LivePageHTML.page())
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { error in
                        // A peer that reset before its accept (ECONNABORTED) is no reason to wait.
                        guard [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else { return nil }
                        if !connections.acceptFailing.exchange(true, ordering: .relaxed) {
                            problems("cannot accept a connection (\(Self.describe(error))); retrying each second")
                        }
                        return .seconds(1)
                    })
                }
            }
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: LiveSocketHandler.writeBufferLimit / 2, high: LiveSocketHandler.writeBufferLimit))
            .childChannelInitializer { channel in
                if connections.acceptFailing.exchange(false, ordering: .relaxed) { problems("accepting connections again") }
                let held = connections.held.wrappingAdd(1, ordering: .relaxed).newValue
                channel.closeFuture.whenComplete { _ in connections.held.wrappingSubtract(1, ordering: .relaxed) }
                guard held <= connectionLimit else { return channel.close() }
                let hosts = connections.hosts.withLock { $0 }
                return channel.eventLoop.makeCompletedFuture {
                    try Self.configure(channel, page: page, hosts: hosts, viewers: viewers, idleLimit: idleLimit)
                }
            }
        let channel: Channel
        do {
            channel = try await bootstrap.bind(host: address.host, port: Int(address.port)).get()
        } catch {
            try? await group.shutdownGracefully()
            throw .cannotListen(address: "\(address)", reason: Self.describe(error))
        }
        var served = address
        if let port = channel.localAddress?.port { served.port = UInt16(port) }
        connections.hosts.withLock { $0.address = served }
        return LivePageServer(group: group, channel: channel, viewers: viewers, connections: connections, address: served)
    }

    /// One connection's pipeline: the head's bounds, HTTP, and the upgrade to a viewer.
    private static func configure(_ channel: Channel, page: ByteBuffer, hosts: PageHosts, viewers: LivePageViewers, idleLimit: TimeAmount) throws {
        let idle = IdleStateHandler(readTimeout: idleLimit)
        let limit = RequestHeadLimit()
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: LiveSocketHandler.maxFrameSize, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let allowed = path == "/live" && hosts.allowsWebSocket(origin: head.headers.first(name: "origin"), host: head.headers.first(name: "host"))
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    // A viewer sends nothing for as long as it watches: neither bound applies now.
                    channel.pipeline.removeHandler(name: "idle", promise: nil)
                    channel.pipeline.removeHandler(name: "head-limit", promise: nil)
                    try channel.pipeline.syncOperations.addHandler(LiveSocketHandler(viewers: viewers))
                }
            })
        let http = PageHTTPHandler(page: page, hosts: hosts, answered: { limit.nextRequest() })
        try channel.pipeline.syncOperations.addHandler(idle, name: "idle")
        try channel.pipeline.syncOperations.addHandler(limit, name: "head-limit")
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.removeHandler(name: "page", promise: nil)
            }))
        try channel.pipeline.syncOperations.addHandler(http, name: "page")
    }

    /// An error as the run says it: the system's words for an errno.
    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }

    private init(group: MultiThreadedEventLoopGroup, channel: Channel, viewers: LivePageViewers, connections: PageConnections, address: WebAddress) {
        self.group = group
        self.channel = channel
        self.viewers = viewers
        self.connections = connections
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

    /// How many connections are held now (page loads, viewers, and ones being refused).
    public var connectionCount: Int { connections.held.load(ordering: .relaxed) }

    /// Closes every viewer's socket (1001, going away) and stops listening, without waiting for
    /// requests in flight.
    public func stop() async {
        viewers.closeAll()
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// What every connection of one server shares: how many are held, whether accepting fails,
/// and the hosts served (the port is known once bound).
final class PageConnections: Sendable {
    let held = Atomic<Int>(0)
    let acceptFailing = Atomic<Bool>(false)
    let hosts: Mutex<PageHosts>

    init(hosts: PageHosts) {
        self.hosts = Mutex(hosts)
    }
}
