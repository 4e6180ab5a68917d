// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import CMosquitto
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The network loop: one thread of ours per client that runs libmosquitto's `mosquitto_loop`
/// (reads, writes, keepalive) and reconnects with backoff when the connection ends.
///
/// Why not libmosquitto's own thread (`mosquitto_loop_start`): in 2.0 its `mosquitto_loop_forever`
/// returns for good after a TLS, protocol or authentication error (lib/loop.c, "Quit after fatal
/// errors"), without a disconnect callback, so a client would silently stop reconnecting — a
/// certificate being renewed or a broker restarting mid-handshake would end an agent's connection
/// for ever. Its backoff can also only be interrupted by `mosquitto_loop_stop`, which works
/// only for its own thread. This loop retries after every error, reports each one, and stops
/// within one wake-up when ``MQTTClient/disconnect()`` asks.
extension MosquittoSession {
    /// How long a disconnecting client may take to send its DISCONNECT before the loop gives up.
    static let disconnectBound: Duration = .seconds(2)

    /// Starts the loop thread (once, after the first TCP connection was made).
    func startLoop() throws(MQTTError) {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let code = pthread_create(&thread, nil, { raw in
            let session = Unmanaged<MosquittoSession>.fromOpaque(raw!).takeRetainedValue()
            session.runLoop()
            return nil
        }, retained)
        guard code == 0 else {
            Unmanaged<MosquittoSession>.fromOpaque(retained).release()
            throw .unreachable(broker: broker, reason: "cannot start the network thread: \(Errno(rawValue: code))")
        }
        state.withLock { $0.loopThread = thread }
    }

    private func runLoop() {
        var delay = configuration.reconnectDelaySeconds
        var stopDeadline: ContinuousClock.Instant?
        while true {
            let stopping = state.withLock { $0.stopping }
            if stopping && stopDeadline == nil { stopDeadline = .now + Self.disconnectBound }
            if mosquitto_socket(handle) >= 0 {
                if let stopDeadline, ContinuousClock.now >= stopDeadline { return }
                // Returns after at most 1 s, or at once when a packet is queued (libmosquitto
                // wakes its select through a socket pair in threaded mode).
                let code = mosquitto_loop(handle, 1000, 1)
                if code == MOSQ_ERR_SUCCESS.rawValue { continue }
                if stopping { return }
                connectionEnded(code: code, errno: errno)
            } else if stopping {
                return
            }
            // The connection is gone: wait, then try again, doubling the wait each time.
            if state.withLock({ state in defer { state.backoffReset = false }; return state.backoffReset }) {
                delay = configuration.reconnectDelaySeconds
            }
            _ = wake.wait(timeout: .now() + .seconds(Int(delay)))
            if state.withLock({ $0.stopping }) { return }
            delay = min(delay.multipliedReportingOverflow(by: 2).partialValue, configuration.reconnectDelayMaxSeconds)
            let code = mosquitto_reconnect(handle)
            if code != MOSQ_ERR_SUCCESS.rawValue { connectionEnded(code: code, errno: errno) }
        }
    }

    /// The connection failed or ended on the loop's side: whoever waits for the first CONNACK
    /// learns why, and the event stream hears of it if the client was connected (unless
    /// libmosquitto's disconnect callback already said so).
    func connectionEnded(code: Int32, errno savedErrno: Int32) {
        let reason = describe(code: code, errno: savedErrno)
        let (waiter, wasConnected) = state.withLock { state in
            defer {
                state.connectWaiter = nil
                state.connected = false
            }
            return (state.connectWaiter, state.connected)
        }
        waiter?.resume(returning: .failure(.connectionLost(broker: broker, reason: reason)))
        if wasConnected { events.yield(.disconnected(code: code, reason: reason)) }
    }

    /// libmosquitto's words for `code`, with errno's for `MOSQ_ERR_ERRNO` and the last error
    /// libmosquitto logged (OpenSSL's reason for a TLS failure) when there is one.
    func describe(code: Int32, errno savedErrno: Int32) -> String {
        let words = code == MOSQ_ERR_ERRNO.rawValue ? "\(Errno(rawValue: savedErrno))" : MosquittoText.error(code)
        let logged = state.withLock { state in
            defer { state.lastLoggedError = nil }
            return state.lastLoggedError
        }
        return logged.map { "\(words) (\($0))" } ?? words
    }

    /// Asks the loop to stop and waits for its thread to end.
    func stopLoop() {
        let thread = state.withLock { state in
            state.stopping = true
            defer { state.loopThread = nil }
            return state.loopThread
        }
        wake.signal()
        if let thread, pthread_equal(thread, pthread_self()) == 0 { pthread_join(thread, nil) }
    }
}
