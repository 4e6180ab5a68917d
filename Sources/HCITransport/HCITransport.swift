// SPDX-License-Identifier: GPL-2.0-or-later

/// A way to exchange H4-framed HCI packets with one controller: the kernel's HCI socket, the user
/// channel, H4 over TCP or a UART, or the built-in virtual controller.
///
/// Every packet starts with its H4 packet indicator (0x01 command, 0x04 event, …): the kernel's
/// HCI sockets use the same byte, so one decoder serves every transport.
public protocol HCITransport: AnyObject, Sendable {
    /// The adapter as the user named it (`hci0`, `tcp:127.0.0.1:1234`, `virtual`), for messages.
    var adapterName: String { get }
    /// Writes one whole packet (indicator included).
    func send(_ packet: [UInt8]) throws(TransportError)
    /// Waits at most `timeout` for bytes: some bytes (a whole packet from a kernel socket, any
    /// chunk from a stream), or `nil` when nothing came in time. Throws when the peer has gone.
    func receive(timeout: Duration) throws(TransportError) -> [UInt8]?
    /// Closes the transport; a `receive` in progress returns within its poll slice.
    func close()
}

extension Duration {
    /// Whole milliseconds, at least 0, for poll(2).
    var pollMilliseconds: Int32 {
        let (s, atto) = components
        let ms = s * 1000 + atto / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }
}
