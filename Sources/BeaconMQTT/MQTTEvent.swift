// SPDX-License-Identifier: GPL-2.0-or-later

/// A message that arrived on a subscription.
public struct MQTTMessage: Sendable, Hashable {
    /// The topic it was published on.
    public var topic: String
    /// Its payload.
    public var payload: [UInt8]
    /// The quality of service it was delivered with.
    public var qos: Int32
    /// Whether the broker delivered it from its retained store (a message published before the
    /// subscription was made).
    public var retained: Bool

    /// A message as delivered.
    public init(topic: String, payload: [UInt8], qos: Int32, retained: Bool) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retained = retained
    }
}

/// Something that happened to a client, in the order it happened.
public enum MQTTEvent: Sendable, Hashable {
    /// The broker accepted the connection (the first one or a reconnection); `code` is its
    /// CONNACK code (0) and `reason` that code in words.
    case connected(code: Int32, reason: String)
    /// The broker refused a reconnection (wrong credentials since, for example); the client
    /// keeps trying with its backoff.
    case refused(MQTTError)
    /// The connection ended: `code` 0 when this client disconnected, otherwise libmosquitto's
    /// error (`MOSQ_ERR_CONN_LOST`, …); `reason` is that code in words. Unless this client
    /// disconnected, it reconnects with backoff.
    case disconnected(code: Int32, reason: String)
    /// The broker acknowledged a subscription (also each one renewed after a reconnection).
    case subscribed(filter: String, grantedQoS: Int32)
    /// A message arrived.
    case message(MQTTMessage)
}

/// The broker's acknowledgement of a publish: QoS 1's PUBACK, or for QoS 0 the message handed
/// to the network.
public struct MQTTPublishAcknowledgement: Sendable, Hashable {
    /// libmosquitto's message id.
    public var messageID: Int32
    /// The MQTT 5 PUBACK reason code (0 success, 0x10 no matching subscribers); always 0 for
    /// MQTT 3.1.1 and QoS 0, whose brokers say nothing more.
    public var reasonCode: Int32
}
