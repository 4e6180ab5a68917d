// SPDX-License-Identifier: GPL-2.0-or-later
import CMosquitto

/// What went wrong talking to a broker. Every description is one line that names the broker,
/// topic or file concerned and gives the broker's or libmosquitto's answer in words.
public enum MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broker URL cannot be used.
    case invalidURL(String, reason: String)
    /// A configuration field is out of its allowed range.
    case invalidConfiguration(field: String, reason: String)
    /// The credentials file cannot be used (`line` when the problem is on one line).
    case credentials(path: String, line: Int?, reason: String)
    /// libmosquitto refused a call (its `MOSQ_ERR_*` code).
    case library(call: String, code: Int32)
    /// No connection to the broker could be made (DNS, TCP or TLS).
    case unreachable(broker: String, reason: String)
    /// The broker answered the connection with a refusal (CONNACK return code or MQTT 5 reason code).
    case refused(broker: String, code: Int32, reason: String)
    /// The connection dropped before the broker answered.
    case connectionLost(broker: String, reason: String)
    /// The broker did not answer within the bound.
    case timedOut(broker: String, waitingFor: String, after: Duration)
    /// The broker refused a subscription (SUBACK reason code 0x80 or above).
    case subscriptionRefused(filter: String, code: Int32, reason: String)
    /// The broker refused a publish (MQTT 5 PUBACK reason code 0x80 or above).
    case publishRefused(topic: String, code: Int32, reason: String)
    /// The client is not connected (never connected, or disconnected).
    case notConnected
    /// The task waiting for the broker was cancelled.
    case cancelled

    /// The error in one line.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "broker URL '\(url)': \(reason)"
        case .invalidConfiguration(let field, let reason): "MQTT setting \(field): \(reason)"
        case .credentials(let path, let line, let reason): "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        case .library(let call, let code): "\(call) failed: \(MosquittoText.error(code))"
        case .unreachable(let broker, let reason): "cannot reach the MQTT broker \(broker): \(reason)"
        case .refused(let broker, let code, let reason): "the MQTT broker \(broker) refused the connection: \(reason) (code \(code))"
        case .connectionLost(let broker, let reason): "the connection to the MQTT broker \(broker) was lost before it answered: \(reason)"
        case .timedOut(let broker, let what, let after): "the MQTT broker \(broker) did not answer \(what) within \(after)"
        case .subscriptionRefused(let filter, let code, let reason): "the MQTT broker refused the subscription to '\(filter)': \(reason) (code \(code))"
        case .publishRefused(let topic, let code, let reason): "the MQTT broker refused the message on '\(topic)': \(reason) (code \(code))"
        case .notConnected: "the MQTT client is not connected"
        case .cancelled: "cancelled while waiting for the MQTT broker"
        }
    }
}

/// libmosquitto's words for its codes: the one place that turns a code into text.
enum MosquittoText {
    /// A `MOSQ_ERR_*` code in words (`mosquitto_strerror`).
    static func error(_ code: Int32) -> String { String(cString: mosquitto_strerror(code)) }

    /// A CONNACK answer in words: MQTT 3.1.1 return codes through `mosquitto_connack_string`,
    /// MQTT 5 reason codes through `mosquitto_reason_string`.
    static func connack(_ code: Int32, _ version: MQTTProtocolVersion) -> String {
        version == .v5 ? reason(code) : String(cString: mosquitto_connack_string(code))
    }

    /// An MQTT 5 reason code in words (`mosquitto_reason_string`).
    static func reason(_ code: Int32) -> String { String(cString: mosquitto_reason_string(code)) }
}
