// SPDX-License-Identifier: GPL-2.0-or-later
import CMosquitto
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An MQTT client over libmosquitto (Eclipse Mosquitto's reference client library): MQTT 3.1.1
/// or 5, plain TCP or TLS, a Last Will, QoS 0/1 publish and subscribe, and reconnection with
/// backoff that renews the subscriptions.
///
/// The network runs on one thread per client that drives libmosquitto's `mosquitto_loop` (reads,
/// writes, keepalive) and reconnects after any error, the wait doubling from
/// ``MQTTConfiguration/reconnectDelaySeconds`` to ``MQTTConfiguration/reconnectDelayMaxSeconds``
/// (why not libmosquitto's own thread: see MosquittoLoop.swift). What happens arrives, in order,
/// on ``events``.
///
/// ```swift
/// let client = try MQTTClient(MQTTConfiguration(broker: try MQTTBrokerURL(parsing: "mqtt://127.0.0.1"), clientID: "host-1"))
/// try await client.connect()
/// _ = try await client.subscribe("beacon/site/#")
/// for await event in client.events { … }
/// ```
public final class MQTTClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: MQTTConfiguration
    /// What happens to the connection and the messages that arrive, in order. One consumer.
    /// It finishes when the client disconnects.
    public let events: AsyncStream<MQTTEvent>
    let session: MosquittoSession

    /// libmosquitto's global set-up, once per process.
    private static let libraryReady: Bool = { mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue }()

    /// A client for `configuration`; nothing goes on the network until ``connect()``.
    /// - Throws: ``MQTTError/invalidConfiguration(field:reason:)`` for a field out of range,
    ///   ``MQTTError/library(call:code:)`` when libmosquitto refuses a setting (a missing CA file…).
    public init(_ configuration: MQTTConfiguration) throws(MQTTError) {
        try configuration.validate()
        guard Self.libraryReady else { throw .library(call: "mosquitto_lib_init", code: MOSQ_ERR_UNKNOWN.rawValue) }
        self.configuration = configuration
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTEvent.self, bufferingPolicy: .unbounded)
        events = stream
        // A clean session: this client's subscriptions are renewed by itself after each
        // reconnection, and nothing stale is queued by the broker while it is away.
        guard let handle = mosquitto_new(configuration.clientID, true, nil) else {
            throw .library(call: "mosquitto_new", code: MOSQ_ERR_NOMEM.rawValue)
        }
        session = MosquittoSession(handle: handle, configuration: configuration, events: continuation)
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(session).toOpaque())
        session.installCallbacks()
        do throws(MQTTError) {
            try configure(handle, configuration)
        } catch {
            mosquitto_destroy(handle)
            continuation.finish()
            throw error
        }
    }

    private func configure(_ handle: OpaquePointer, _ configuration: MQTTConfiguration) throws(MQTTError) {
        func check(_ call: String, _ code: Int32) throws(MQTTError) {
            if code != MOSQ_ERR_SUCCESS.rawValue { throw .library(call: call, code: code) }
        }
        let version = configuration.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try check("mosquitto_int_option(MOSQ_OPT_PROTOCOL_VERSION)", mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, version))
        // Several threads call into this handle (ours and the callers'): libmosquitto locks.
        try check("mosquitto_threaded_set", mosquitto_threaded_set(handle, true))
        if let credentials = configuration.credentials {
            try check("mosquitto_username_pw_set", mosquitto_username_pw_set(handle, credentials.username, credentials.password))
        }
        if let will = configuration.will {
            let code = will.payload.withUnsafeBytes {
                mosquitto_will_set_v5(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos.rawValue, will.retain, nil)
            }
            try check("mosquitto_will_set_v5", code)
        }
        if let tls = configuration.tls {
            // The key passphrase callback answers "none", so OpenSSL never prompts on a terminal.
            try check("mosquitto_tls_set (CA \(tls.caFile))",
                      mosquitto_tls_set(handle, tls.caFile, nil, tls.certificateFile, tls.keyFile) { _, _, _, _ in 0 })
            // 1 = SSL_VERIFY_PEER: the broker's certificate must check out against the CA.
            try check("mosquitto_tls_opts_set", mosquitto_tls_opts_set(handle, 1, nil, nil))
            try check("mosquitto_tls_insecure_set", mosquitto_tls_insecure_set(handle, false))
        }
    }

    /// Connects and waits for the broker's answer (at most ``MQTTConfiguration/connectTimeout``),
    /// then keeps the connection up on its network thread, reconnecting with backoff.
    ///
    /// The TCP connection (and a DNS lookup) is made on the calling thread by libmosquitto.
    /// - Throws: ``MQTTError/unreachable(broker:reason:)`` when no connection can be made;
    ///   ``MQTTError/refused(broker:code:reason:)`` with the broker's answer (wrong password, not
    ///   authorised…); ``MQTTError/connectionLost(broker:reason:)`` (a TLS verification failure
    ///   shows here); ``MQTTError/timedOut(broker:waitingFor:after:)``; ``MQTTError/notConnected``
    ///   after ``disconnect()``. After a failure the client is closed.
    ///
    /// Once connected, calling it again does nothing (the network thread keeps the connection).
    public func connect() async throws(MQTTError) {
        let (running, closed) = session.state.withLock { ($0.loopThread != nil, $0.closed) }
        if closed { throw .notConnected }
        if running { return }
        let configuration = configuration
        let code = mosquitto_connect_bind_v5(session.handle, configuration.broker.host, Int32(configuration.broker.port),
                                             configuration.keepaliveSeconds, nil, nil)
        let savedErrno = errno
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            // errno's words for MOSQ_ERR_ERRNO (connection refused, no route…); OpenSSL's when
            // the TLS handshake already failed here.
            let reason = session.describe(code: code, errno: savedErrno)
            disconnect()
            throw .unreachable(broker: configuration.broker.description, reason: reason)
        }
        let timeout = configuration.connectTimeout
        let session = session
        let bound = Task {
            try await Task.sleep(for: timeout)
            session.cancelConnectWaiter(with: .timedOut(broker: configuration.broker.description, waitingFor: "the connection (CONNACK)", after: timeout))
        }
        defer { bound.cancel() }
        let result: Result<Void, MQTTError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: MosquittoSession.Waiter<Void>) in
                let refusal: MQTTError? = session.state.withLock { state in
                    if state.closed { return .notConnected }
                    if Task.isCancelled { return .cancelled }
                    state.connectWaiter = waiter
                    return nil
                }
                if let refusal { waiter.resume(returning: .failure(refusal)); return }
                do throws(MQTTError) {
                    try session.startLoop()
                } catch {
                    session.cancelConnectWaiter(with: error)
                }
            }
        } onCancel: {
            session.cancelConnectWaiter(with: .cancelled)
        }
        if case .failure(let error) = result {
            disconnect()
            throw error
        }
    }

    /// Subscribes to `filter` (wildcards `+` and `#` allowed) and waits for the broker's SUBACK.
    /// The subscription is renewed after every reconnection. Made while the connection is down,
    /// it waits for the next one.
    /// - Returns: the QoS the broker granted.
    /// - Throws: ``MQTTError/subscriptionRefused(filter:code:reason:)`` when the broker refuses
    ///   the filter (its reason under MQTT 5, "Failure" under 3.1.1; Mosquitto 2.0 grants
    ///   filters the ACL does not allow and then delivers nothing it may not read),
    ///   ``MQTTError/library(call:code:)`` for a malformed filter,
    ///   ``MQTTError/notConnected`` after ``disconnect()``, ``MQTTError/cancelled``.
    @discardableResult
    public func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce) async throws(MQTTError) -> Int32 {
        let session = session
        let result: Result<Int32, MQTTError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: MosquittoSession.Waiter<Int32>) in
                let refusal: MQTTError? = session.state.withLock { state in
                    if state.closed { return .notConnected }
                    if Task.isCancelled { return .cancelled }
                    var id: Int32 = 0
                    let code = mosquitto_subscribe_v5(session.handle, &id, filter, qos.rawValue, 0, nil)
                    if code == MOSQ_ERR_SUCCESS.rawValue {
                        state.subscribeIDs[id] = filter
                    } else if code != MOSQ_ERR_NO_CONN.rawValue {
                        return .library(call: "mosquitto_subscribe_v5('\(filter)')", code: code)
                    }
                    state.subscriptions.removeAll { $0.filter == filter }
                    state.subscriptions.append((filter, qos))
                    state.subscribeWaiters[filter, default: []].append(waiter)
                    return nil
                }
                if let refusal { waiter.resume(returning: .failure(refusal)) }
            }
        } onCancel: {
            let waiters = session.state.withLock { $0.subscribeWaiters.removeValue(forKey: filter) } ?? []
            for waiter in waiters { waiter.resume(returning: .failure(.cancelled)) }
        }
        return try result.get()
    }

    /// Publishes `payload` on `topic` and waits for the acknowledgement: for QoS 1 the broker's
    /// PUBACK (libmosquitto resends until it comes, across reconnections), for QoS 0 the message
    /// written to the network.
    ///
    /// Under MQTT 3.1.1 a broker drops a message this client may not publish and still
    /// acknowledges it; under MQTT 5 with QoS 1 the refusal comes back as
    /// ``MQTTError/publishRefused(topic:code:reason:)``.
    /// - Throws: ``MQTTError/publishRefused(topic:code:reason:)``, ``MQTTError/notConnected``
    ///   (QoS 0 while the connection is down, or after ``disconnect()``),
    ///   ``MQTTError/library(call:code:)`` for a malformed topic or an oversized payload,
    ///   ``MQTTError/cancelled``.
    @discardableResult
    public func publish(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false) async throws(MQTTError) -> MQTTPublishAcknowledgement {
        let session = session
        let messageID = Mutex<Int32?>(nil)
        let result: Result<MQTTPublishAcknowledgement, MQTTError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: MosquittoSession.Waiter<MQTTPublishAcknowledgement>) in
                let refusal: MQTTError? = session.state.withLock { state in
                    if state.closed { return .notConnected }
                    if Task.isCancelled { return .cancelled }
                    var id: Int32 = 0
                    let code = payload.withUnsafeBytes {
                        mosquitto_publish_v5(session.handle, &id, topic, Int32($0.count), $0.baseAddress, qos.rawValue, retain, nil)
                    }
                    if code == MOSQ_ERR_NO_CONN.rawValue { return .notConnected }
                    if code != MOSQ_ERR_SUCCESS.rawValue { return .library(call: "mosquitto_publish_v5('\(topic)')", code: code) }
                    state.publishWaiters[id] = (topic, waiter)
                    messageID.withLock { $0 = id }
                    return nil
                }
                if let refusal { waiter.resume(returning: .failure(refusal)) }
            }
        } onCancel: {
            guard let id = messageID.withLock({ $0 }) else { return }
            let entry = session.state.withLock { $0.publishWaiters.removeValue(forKey: id) }
            entry?.waiter.resume(returning: .failure(.cancelled))
        }
        return try result.get()
    }

    /// Whether the broker has accepted the connection and it has not dropped since.
    public var isConnected: Bool { session.state.withLock { $0.connected } }

    /// Sends DISCONNECT (so the broker does not publish the Last Will), stops the loop thread,
    /// fails every waiting call with ``MQTTError/notConnected`` and finishes ``events``.
    /// Nothing can be started again; make a new client. Calling it again does nothing.
    public func disconnect() {
        let alreadyClosed = session.state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !alreadyClosed else { return }
        // Queued for the loop thread, which sends it (bounded) before it ends.
        _ = mosquitto_disconnect_v5(session.handle, 0, nil)
        session.stopLoop()
        session.failAllWaiters(with: .notConnected)
        session.events.finish()
    }

    deinit {
        disconnect()
        mosquitto_destroy(session.handle)
    }
}

extension MQTTClient {
    /// The connection's socket (−1 when there is none), for tests that drop a connection
    /// without an MQTT DISCONNECT, as a killed process would.
    var socketDescriptor: Int32 { mosquitto_socket(session.handle) }
}
