// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOWebSocket

/// One viewer's WebSocket (`/live`), after the upgrade: it joins ``LivePageViewers`` and gets
/// every snapshot from then on. The page sends nothing but control frames, so that is all this
/// reads: a ping is answered, a close is answered and closes; data frames are dropped (each at
/// most ``maxFrameSize`` bytes: the decoder refuses a longer one before reading it, and closes
/// with 1009). RFC 6455 §5.1 and §5.2: a client frame that is not masked, or sets a reserved
/// bit no extension was agreed for, closes the connection with 1002.
///
/// A viewer that does not read is closed rather than queued for: when its socket stops being
/// writable (past ``writeBufferLimit`` bytes unsent) the next message or pong closes it at once
/// (a close frame could not reach it), and a page that comes back gets the whole state first.
/// A close frame that is sent is followed by the close within ``closeLimit`` whatever the peer
/// reads.
final class LiveSocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The longest frame read from a viewer (a ping's payload is at most 125 bytes).
    static let maxFrameSize = 1024
    /// Unsent bytes to one viewer beyond which it counts as not reading (the map of a large
    /// plan is a few hundred kilobytes).
    static let writeBufferLimit = 4 * 1024 * 1024
    /// How long a close frame may wait to be sent before the socket is closed anyway.
    static let closeLimit = TimeAmount.seconds(1)

    private let viewers: LivePageViewers
    private var id: UInt64?

    init(viewers: LivePageViewers) {
        self.viewers = viewers
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        id = viewers.add(send: { text in Self.send(text, on: channel) },
                         close: { Self.close(channel, code: .goingAway) })
        if id == nil { Self.close(channel, code: .goingAway) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let id { viewers.remove(id) }
        id = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id { viewers.remove(id) }
        id = nil
        context.fireChannelInactive()
    }

    /// Past ``writeBufferLimit`` unsent (a burst of messages the viewer does not read): closed at
    /// once, without a close frame, which could not reach it.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable { context.close(promise: nil) }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.maskKey != nil, !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            return Self.close(context.channel, code: .protocolError)
        }
        switch frame.opcode {
        case .ping:
            guard context.channel.isWritable else { return Self.close(context.channel, code: .goingAway) }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            // RFC 6455 §7.4.1: 1005, 1006 and 1015 are never sent in a close frame.
            let code = data.readWebSocketErrorCode().flatMap { [1005, 1006, 1015].contains(UInt16(webSocketErrorCode: $0)) ? nil : $0 }
            Self.close(context.channel, code: code ?? .normalClosure)
        case .text, .binary, .continuation, .pong:
            break
        default:
            // A reserved opcode (RFC 6455 §5.2): the connection fails.
            Self.close(context.channel, code: .protocolError)
        }
    }

    /// Sends one message, or closes a viewer that has stopped reading. Any thread.
    static func send(_ text: ByteBuffer, on channel: Channel) {
        guard channel.isWritable else { return close(channel, code: .goingAway) }
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: text), promise: nil)
    }

    /// Sends a close frame with `code`, then closes. Any thread.
    static func close(_ channel: Channel, code: WebSocketErrorCode) {
        guard channel.isWritable else { return channel.close(promise: nil) }
        var data = channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)).whenComplete { _ in
            channel.close(promise: nil)
        }
        channel.eventLoop.scheduleTask(in: closeLimit) { channel.close(promise: nil) }
    }
}
