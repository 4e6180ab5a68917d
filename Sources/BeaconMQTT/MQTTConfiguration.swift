// SPDX-License-Identifier: GPL-2.0-or-later

/// The MQTT protocol version a client speaks.
public enum MQTTProtocolVersion: Sendable, Hashable, CustomStringConvertible {
    /// MQTT 3.1.1: the broker drops what it may not accept without saying so.
    case v311
    /// MQTT 5: acknowledgements carry reason codes (a refused publish is reported).
    case v5

    /// "MQTT 3.1.1" or "MQTT 5".
    public var description: String { self == .v311 ? "MQTT 3.1.1" : "MQTT 5" }
}

/// An MQTT quality of service the client uses: at most once or at least once. (QoS 2 is not
/// offered: nothing in beacon's site needs exactly-once delivery.)
public enum MQTTQoS: Int32, Sendable, Hashable {
    /// At most once: no acknowledgement.
    case atMostOnce = 0
    /// At least once: the broker acknowledges (PUBACK), the client resends until it does.
    case atLeastOnce = 1
}

/// Where the broker is: `mqtt://HOST[:PORT]` (plain TCP, port 1883 by default) or
/// `mqtts://HOST[:PORT]` (TLS, port 8883 by default).
public struct MQTTBrokerURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The TCP port.
    public var port: UInt16
    /// Whether the connection uses TLS (`mqtts://`).
    public var usesTLS: Bool

    /// Parses `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`; an IPv6 address goes in brackets.
    /// - Throws: ``MQTTError/invalidURL(_:reason:)`` naming what is wrong.
    public init(parsing text: String) throws(MQTTError) {
        let rest: Substring
        if text.hasPrefix("mqtts://") {
            usesTLS = true
            rest = text.dropFirst("mqtts://".count)
        } else if text.hasPrefix("mqtt://") {
            usesTLS = false
            rest = text.dropFirst("mqtt://".count)
        } else {
            throw .invalidURL(text, reason: "it must start with mqtt:// or mqtts://")
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        if authority.contains("/") || authority.contains("@") || authority.contains("?") {
            throw .invalidURL(text, reason: "only HOST[:PORT] may follow the scheme (credentials come from a file or the environment)")
        }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(text, reason: "an IPv6 address needs its closing ]") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(text, reason: "only :PORT may follow the ]") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw .invalidURL(text, reason: "the host is missing") }
        host = String(hostPart)
        if let portPart {
            guard let port = UInt16(portPart), port > 0 else {
                throw .invalidURL(text, reason: "the port must be a number from 1 to 65535, not '\(portPart)'")
            }
            self.port = port
        } else {
            port = usesTLS ? 8883 : 1883
        }
    }

    /// `mqtt://HOST:PORT` or `mqtts://HOST:PORT`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(shownHost):\(port)"
    }
}

/// TLS settings for an `mqtts://` broker. The broker's certificate is always verified against the
/// CA file, and its host name against the certificate.
public struct MQTTTLSSettings: Sendable, Hashable {
    /// PEM file of the certificate authorities trusted to sign the broker's certificate.
    public var caFile: String
    /// PEM client certificate, when the broker asks clients for one.
    public var certificateFile: String?
    /// PEM private key of ``certificateFile`` (unencrypted: nothing may prompt for a passphrase).
    public var keyFile: String?

    /// TLS with the given CA file and, optionally, a client certificate and its key.
    public init(caFile: String, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}

/// The Last Will: what the broker publishes for this client when it goes away without saying
/// goodbye (killed, network lost, keepalive expired).
public struct MQTTWill: Sendable, Hashable {
    /// The topic the will is published on.
    public var topic: String
    /// The will's payload.
    public var payload: [UInt8]
    /// The quality of service the broker publishes it with.
    public var qos: MQTTQoS
    /// Whether the broker retains it (so late subscribers see it too).
    public var retain: Bool

    /// A will of `payload` on `topic`.
    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// Everything an ``MQTTClient`` needs to reach its broker.
public struct MQTTConfiguration: Sendable {
    /// The broker.
    public var broker: MQTTBrokerURL
    /// The client identifier; unique per broker (a second client with the same one takes over).
    public var clientID: String
    /// MQTT 3.1.1 or 5.
    public var protocolVersion: MQTTProtocolVersion
    /// User name and password, if the broker wants them.
    public var credentials: MQTTCredentials?
    /// TLS settings; required for `mqtts://`, refused for `mqtt://`.
    public var tls: MQTTTLSSettings?
    /// The Last Will, if any.
    public var will: MQTTWill?
    /// Keepalive in seconds (5–65535): how soon the broker notices the client is gone.
    public var keepaliveSeconds: Int32
    /// First wait before reconnecting, in seconds (at least 1); doubled after each failed try.
    public var reconnectDelaySeconds: UInt32
    /// Longest wait between reconnection attempts, in seconds.
    public var reconnectDelayMaxSeconds: UInt32
    /// How long ``MQTTClient/connect()`` waits for the broker's answer (a hang bound).
    public var connectTimeout: Duration

    /// A configuration with the usual defaults: MQTT 5, keepalive 30 s, reconnect after 1 s
    /// doubling up to 30 s, a 10 s connect bound.
    public init(broker: MQTTBrokerURL, clientID: String, protocolVersion: MQTTProtocolVersion = .v5,
                credentials: MQTTCredentials? = nil, tls: MQTTTLSSettings? = nil, will: MQTTWill? = nil,
                keepaliveSeconds: Int32 = 30, reconnectDelaySeconds: UInt32 = 1, reconnectDelayMaxSeconds: UInt32 = 30,
                connectTimeout: Duration = .seconds(10)) {
        self.broker = broker
        self.clientID = clientID
        self.protocolVersion = protocolVersion
        self.credentials = credentials
        self.tls = tls
        self.will = will
        self.keepaliveSeconds = keepaliveSeconds
        self.reconnectDelaySeconds = reconnectDelaySeconds
        self.reconnectDelayMaxSeconds = reconnectDelayMaxSeconds
        self.connectTimeout = connectTimeout
    }

    /// Checks the fields against their allowed ranges.
    /// - Throws: ``MQTTError/invalidConfiguration(field:reason:)``.
    public func validate() throws(MQTTError) {
        if clientID.isEmpty || clientID.utf8.count > 65535 {
            throw .invalidConfiguration(field: "clientID", reason: "must be 1–65535 bytes")
        }
        if !(5...65535).contains(keepaliveSeconds) {
            throw .invalidConfiguration(field: "keepaliveSeconds", reason: "must be 5–65535, not \(keepaliveSeconds)")
        }
        if reconnectDelaySeconds < 1 || reconnectDelayMaxSeconds < reconnectDelaySeconds {
            throw .invalidConfiguration(field: "reconnectDelaySeconds",
                                        reason: "must be at least 1 and at most reconnectDelayMaxSeconds (\(reconnectDelaySeconds)…\(reconnectDelayMaxSeconds))")
        }
        if broker.usesTLS && tls == nil {
            throw .invalidConfiguration(field: "tls", reason: "\(broker) needs a CA file")
        }
        if !broker.usesTLS && tls != nil {
            throw .invalidConfiguration(field: "tls", reason: "\(broker) is plain TCP; use mqtts:// for TLS")
        }
        if let tls, (tls.certificateFile == nil) != (tls.keyFile == nil) {
            throw .invalidConfiguration(field: "tls", reason: "a client certificate needs its key file, and a key its certificate")
        }
        if let will, will.topic.isEmpty || will.topic.contains("#") || will.topic.contains("+") {
            throw .invalidConfiguration(field: "will.topic", reason: "must be a topic name without wildcards, not '\(will.topic)'")
        }
    }
}
