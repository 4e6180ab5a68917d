// SPDX-License-Identifier: GPL-2.0-or-later
import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The state libmosquitto's callbacks and the client's callers share. libmosquitto calls back on
/// its own loop thread; every field here is behind one `Mutex`, and waiting callers are resumed
/// through continuations, so nothing is touched from two threads at once.
///
/// Lock order: a caller holds this lock while it hands a SUBSCRIBE or PUBLISH to libmosquitto,
/// so the acknowledgement cannot arrive before its waiter is registered. That is safe because
/// in threaded mode (`mosquitto_threaded_set`) those calls only queue the packet
/// (lib/packet_mosq.c `packet__queue`: `out_packet_mutex`, then a byte to wake the loop) and
/// never take the mutexes the loop thread holds while it calls back (`callback_mutex`,
/// `current_out_packet_mutex`).
final class MosquittoSession: Sendable {
    typealias Waiter<T: Sendable> = CheckedContinuation<Result<T, MQTTError>, Never>

    struct State {
        /// The network loop's thread (see MosquittoLoop.swift).
        var loopThread: pthread_t?
        /// ``MQTTClient/disconnect()`` asked the loop to end.
        var stopping = false
        /// A CONNACK accepted the connection: the next reconnection starts from the shortest wait.
        var backoffReset = false
        /// The last error libmosquitto logged (OpenSSL's reason for a failed handshake).
        var lastLoggedError: String?
        /// Waiting for the first CONNACK in ``MQTTClient/connect()``.
        var connectWaiter: Waiter<Void>?
        var connected = false
        /// Set once ``MQTTClient/disconnect()`` ran: nothing may start again.
        var closed = false
        /// Every subscription made, renewed after each reconnection (the session is clean).
        var subscriptions: [(filter: String, qos: MQTTQoS)] = []
        /// SUBSCRIBE message ids → their filter.
        var subscribeIDs: [Int32: String] = [:]
        /// Callers waiting for a filter's SUBACK.
        var subscribeWaiters: [String: [Waiter<Int32>]] = [:]
        /// Callers waiting for a PUBLISH's acknowledgement, by message id.
        var publishWaiters: [Int32: (topic: String, waiter: Waiter<MQTTPublishAcknowledgement>)] = [:]
    }

    /// libmosquitto's handle. Not Sendable as a C pointer, but libmosquitto's calls are thread
    /// safe once its loop thread runs (its own mutexes), and the handle lives as long as this object.
    nonisolated(unsafe) let handle: OpaquePointer
    let state = Mutex(State())
    let configuration: MQTTConfiguration
    let events: AsyncStream<MQTTEvent>.Continuation
    /// Wakes the loop thread out of its reconnection wait.
    let wake = DispatchSemaphore(value: 0)

    init(handle: OpaquePointer, configuration: MQTTConfiguration, events: AsyncStream<MQTTEvent>.Continuation) {
        self.handle = handle
        self.configuration = configuration
        self.events = events
    }

    var broker: String { configuration.broker.description }

    // MARK: From libmosquitto's loop thread

    func didConnect(code: Int32) {
        let words = MosquittoText.connack(code, configuration.protocolVersion)
        guard code == 0 else {
            let error = MQTTError.refused(broker: broker, code: code, reason: words)
            let waiter = state.withLock { state in
                defer { state.connectWaiter = nil }
                return state.connectWaiter
            }
            if let waiter { waiter.resume(returning: .failure(error)) } else { events.yield(.refused(error)) }
            return
        }
        let waiter = state.withLock { state in
            state.connected = true
            state.backoffReset = true
            state.lastLoggedError = nil
            // Renew the subscriptions (the broker forgot them with the clean session); a
            // failure here comes back as a disconnection, and the next reconnection tries again.
            for subscription in state.subscriptions {
                var id: Int32 = 0
                if mosquitto_subscribe_v5(handle, &id, subscription.filter, subscription.qos.rawValue, 0, nil) == MOSQ_ERR_SUCCESS.rawValue {
                    state.subscribeIDs[id] = subscription.filter
                }
            }
            defer { state.connectWaiter = nil }
            return state.connectWaiter
        }
        events.yield(.connected(code: code, reason: words))
        waiter?.resume(returning: .success(()))
    }

    /// libmosquitto closed the connection (`code` 0: this client disconnected).
    func didDisconnect(code: Int32) { connectionEnded(code: code, errno: errno) }

    func didLog(level: Int32, _ text: UnsafePointer<CChar>?) {
        guard level == MOSQ_LOG_ERR, let text else { return }
        let line = String(cString: text)
        // OpenSSL's first error is the reason; later lines repeat or generalise it.
        state.withLock { state in if state.lastLoggedError == nil { state.lastLoggedError = line } }
    }

    func didSubscribe(messageID: Int32, granted: Int32) {
        let (filter, waiters): (String?, [Waiter<Int32>]) = state.withLock { state in
            guard let filter = state.subscribeIDs.removeValue(forKey: messageID) else { return (nil, []) }
            if granted >= 0x80 { state.subscriptions.removeAll { $0.filter == filter } }
            return (filter, state.subscribeWaiters.removeValue(forKey: filter) ?? [])
        }
        guard let filter else { return }
        if granted >= 0x80 {
            // MQTT 3.1.1 says only 0x80 (failure); MQTT 5 gives the reason.
            let words = configuration.protocolVersion == .v5 ? MosquittoText.reason(granted) : "Failure"
            for waiter in waiters { waiter.resume(returning: .failure(.subscriptionRefused(filter: filter, code: granted, reason: words))) }
        } else {
            events.yield(.subscribed(filter: filter, grantedQoS: granted))
            for waiter in waiters { waiter.resume(returning: .success(granted)) }
        }
    }

    func didPublish(messageID: Int32, reasonCode: Int32) {
        guard let entry = state.withLock({ $0.publishWaiters.removeValue(forKey: messageID) }) else { return }
        if reasonCode >= 0x80 {
            entry.waiter.resume(returning: .failure(.publishRefused(topic: entry.topic, code: reasonCode, reason: MosquittoText.reason(reasonCode))))
        } else {
            entry.waiter.resume(returning: .success(MQTTPublishAcknowledgement(messageID: messageID, reasonCode: reasonCode)))
        }
    }

    func didReceive(_ message: UnsafePointer<mosquitto_message>) {
        let m = message.pointee
        let payload = m.payloadlen > 0 && m.payload != nil
            ? Array(UnsafeRawBufferPointer(start: m.payload, count: Int(m.payloadlen)))
            : []
        events.yield(.message(MQTTMessage(topic: String(cString: m.topic), payload: payload, qos: m.qos, retained: m.retain)))
    }

    // MARK: Cancelling waiters

    func cancelConnectWaiter(with error: MQTTError) {
        let waiter = state.withLock { state in
            defer { state.connectWaiter = nil }
            return state.connectWaiter
        }
        waiter?.resume(returning: .failure(error))
    }

    /// Fails every waiter (the client is closing).
    func failAllWaiters(with error: MQTTError) {
        let (connect, subscribes, publishes) = state.withLock { state in
            defer {
                state.connectWaiter = nil
                state.subscribeWaiters = [:]
                state.publishWaiters = [:]
            }
            return (state.connectWaiter, state.subscribeWaiters.values.flatMap { $0 }, state.publishWaiters.values.map(\.waiter))
        }
        connect?.resume(returning: .failure(error))
        for waiter in subscribes { waiter.resume(returning: .failure(error)) }
        for waiter in publishes { waiter.resume(returning: .failure(error)) }
    }
}

// MARK: The C callbacks: find the session from libmosquitto's `obj` and hand over.

private func session(_ object: UnsafeMutableRawPointer?) -> MosquittoSession {
    Unmanaged<MosquittoSession>.fromOpaque(object!).takeUnretainedValue()
}

extension MosquittoSession {
    /// Registers the version-5 callbacks, which libmosquitto calls for MQTT 3.1.1 as well.
    func installCallbacks() {
        mosquitto_connect_v5_callback_set(handle) { _, object, code, _, _ in session(object).didConnect(code: code) }
        mosquitto_disconnect_v5_callback_set(handle) { _, object, code, _ in session(object).didDisconnect(code: code) }
        mosquitto_subscribe_v5_callback_set(handle) { _, object, messageID, count, granted, _ in
            session(object).didSubscribe(messageID: messageID, granted: count > 0 ? granted![0] : 0x80)
        }
        mosquitto_publish_v5_callback_set(handle) { _, object, messageID, reasonCode, _ in
            session(object).didPublish(messageID: messageID, reasonCode: reasonCode)
        }
        mosquitto_message_v5_callback_set(handle) { _, object, message, _ in
            if let message { session(object).didReceive(message) }
        }
        mosquitto_log_callback_set(handle) { _, object, level, text in session(object).didLog(level: level, text) }
    }
}
