// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOHTTP1

/// Answers the HTTP requests that are not a WebSocket upgrade: `GET /` (and `HEAD /`) is the
/// page; a `Host` the page is not served as is 421, `/live` without an allowed upgrade 403,
/// anything else 404. Every answer carries the headers that keep a browser from reading it as
/// anything else or another site framing it (`nosniff`, a Content-Security-Policy that lets the page reach
/// nothing but its own socket).
final class PageHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let page: ByteBuffer
    private let hosts: PageHosts
    private var answer: (status: HTTPResponseStatus, body: ByteBuffer, type: String, head: Bool)?
    private var keepAlive = true

    /// Called once an answer is written and the connection stays open for the next request.
    private let answered: () -> Void

    init(page: ByteBuffer, hosts: PageHosts, answered: @escaping () -> Void = {}) {
        self.page = page
        self.hosts = hosts
        self.answered = answered
    }

    /// The page's policy: its inline style and script, its own WebSocket, `data:` images;
    /// nothing fetched, no form, framed by no other origin (frames of itself, as a test shows three
    /// viewers in one window, are allowed).
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            let host = head.headers.first(name: "host")
            let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let text = "text/plain; charset=utf-8"
            if !hosts.allows(host: host) {
                answer = (.misdirectedRequest, context.channel.allocator.buffer(string: "this page is served as \(hosts.served)\n"), text, false)
            } else if (head.method == .GET || head.method == .HEAD) && path == "/" {
                answer = (.ok, page, "text/html; charset=utf-8", head.method == .HEAD)
            } else if head.method == .GET && path == "/live" {
                answer = (.forbidden, context.channel.allocator.buffer(string: "/live is a WebSocket for a page served as \(hosts.served)\n"), text, false)
            } else {
                answer = (.notFound, context.channel.allocator.buffer(string: "not found\n"), text, false)
            }
            // A refused upgrade is answered, then closed: NIO's parser stops at an upgrade
            // request's end and would buffer whatever came after it, unread.
            if head.headers.contains(name: "upgrade") { keepAlive = false }
            // A request with a body is not one this server reads: it is answered at once (a body
            // sent slowly holds nothing) and closed.
            if head.headers.contains(name: "content-length") || head.headers.contains(name: "transfer-encoding") {
                keepAlive = false
                respond(context)
            }
        case .body:
            break
        case .end:
            respond(context)
        }
    }

    /// Writes the answer decided at the head (once), closing after it unless kept alive.
    private func respond(_ context: ChannelHandlerContext) {
        guard let answer else { return }
        self.answer = nil
        var headers = HTTPHeaders([
            ("Content-Type", answer.type), ("Content-Length", "\(answer.body.readableBytes)"),
            ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", Self.contentSecurityPolicy), ("Referrer-Policy", "no-referrer"),
        ])
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: answer.status, headers: headers))), promise: nil)
        if !answer.head { context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil) }
        let close = !keepAlive
        let loopBound = context.loopBound
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if close { loopBound.value.close(promise: nil) }
        }
        if !close { answered() }
    }
}
