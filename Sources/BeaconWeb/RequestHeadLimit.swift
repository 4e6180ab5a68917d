// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// Bounds a request's head before the HTTP parser sees it: a request line longer than
/// ``lineLimit`` is answered 414 (URI Too Long), a header line longer than that or a head
/// longer than ``headLimit`` 431 (Request Header Fields Too Large, RFC 6585 §5), and the
/// connection is closed. Each byte is looked at once (linear in what is sent), and a refused
/// connection's further bytes are thrown away unread until it closes.
///
/// NIO's parser bounds header fields (80 KiB by default) but not the request target; this one
/// place bounds both, smaller. A client that sends nothing for ``idleLimit`` is closed too
/// (with `IdleStateHandler` in front): a half-open connection does not hold a descriptor.
/// A client that sends requests and does not read the answers is not read from either while its
/// socket is not writable (NIO's pipelining helper waits for an answer to be written, not
/// flushed), so unsent answers stay under the write-buffer limit; quiet for ``idleLimit`` it is
/// then closed. The WebSocket upgrade removes this handler: frames are bounded by their own decoder.
final class RequestHeadLimit: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The longest request line and header line, bytes (CR and LF not counted).
    static let lineLimit = 8 * 1024
    /// The longest head (request line and every header), bytes.
    static let headLimit = 64 * 1024
    /// How long a connection may send nothing before its request is complete.
    static let idleLimit = TimeAmount.seconds(10)
    /// How long a refused connection is kept once its client stops sending (its output closed,
    /// its input thrown away), so that the refusal is read before the socket resets; and how
    /// long at most while it goes on sending.
    static let lingerLimit = TimeAmount.seconds(2)
    static let lingerMaximum = TimeAmount.seconds(30)

    private var lineLength = 0
    private var headLength = 0
    private var inRequestLine = true
    private var refused: NIODeadline?
    /// A head has ended: what follows (its body, if any) goes to the parser unlooked-at until
    /// the request is answered (``nextRequest()``); a request with a body is answered at its
    /// head and closed, so that is never more than one read.
    private var passing = false
    /// A read asked for while the socket was not writable, issued once it is.
    private var heldRead = false
    private var lingering: Scheduled<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refused == nil else { return linger(context) }
        guard !passing else { return context.fireChannelRead(data) }
        let buffer = unwrapInboundIn(data)
        for byte in buffer.readableBytesView {
            switch byte {
            case UInt8(ascii: "\n"):
                // An empty line ends the head (before the request line, one is ignored: RFC 9112 §2.2).
                if lineLength == 0, !inRequestLine {
                    passing = true
                    return context.fireChannelRead(data)
                }
                inRequestLine = lineLength == 0 && inRequestLine
                lineLength = 0
            case UInt8(ascii: "\r"):
                continue
            default:
                lineLength += 1
                headLength += 1
                if inRequestLine, lineLength > Self.lineLimit {
                    return refuse(context, status: "414 URI Too Long", "the request line is longer than \(Self.lineLimit) bytes")
                }
                if !inRequestLine, lineLength > Self.lineLimit || headLength > Self.headLimit {
                    return refuse(context, status: "431 Request Header Fields Too Large",
                                  "a header line is longer than \(Self.lineLimit) bytes or the header longer than \(Self.headLimit)")
                }
            }
        }
        context.fireChannelRead(data)
    }

    /// The request is answered and the connection kept: the next head is bounded again.
    func nextRequest() {
        passing = false
        inRequestLine = true
        lineLength = 0
        headLength = 0
    }

    func read(context: ChannelHandlerContext) {
        guard context.channel.isWritable else {
            heldRead = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, heldRead {
            heldRead = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Answers `status` with `reason` as its body, closes the output, and closes the
    /// connection once the client has closed or after ``lingerLimit``.
    private func refuse(_ context: ChannelHandlerContext, status: String, _ reason: String) {
        refused = .now()
        let body = reason + "\n"
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n\(body)"
        let loopBound = context.loopBound
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response))).whenComplete { result in
            if case .failure = result { loopBound.value.close(promise: nil) } else { loopBound.value.close(mode: .output, promise: nil) }
        }
        linger(context)
    }

    /// Closes the connection ``lingerLimit`` after the last byte it sent, ``lingerMaximum``
    /// after the refusal at the latest.
    private func linger(_ context: ChannelHandlerContext) {
        lingering?.cancel()
        let loopBound = context.loopBound
        let at = min(.now() + Self.lingerLimit, (refused ?? .now()) + Self.lingerMaximum)
        lingering = context.eventLoop.scheduleTask(deadline: at) { loopBound.value.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        lingering?.cancel()
    }
}
